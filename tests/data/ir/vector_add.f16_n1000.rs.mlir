entry @vector_add_entry(%arg0: tile<ptr<f16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f16>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<ptr<f16>>, %arg7: tile<i32>, %arg8: tile<i32>) {
  %cst_256_i32 = constant <i32: 256> : tile<i32> loc(#loc10)
  %assume = assume bounded<0, ?>, %arg1 : tile<i32> loc(#loc10)
  %assume_assume = assume div_by<8>, %assume : tile<i32> loc(#loc10)
  %0 = make_token : token loc(#loc10)
  %assume_0 = assume div_by<16>, %arg0 : tile<ptr<f16>> loc(#loc10)
  %tview = make_tensor_view %assume_0, shape = [%assume_assume], strides = [1] : tile<i32> -> tensor_view<?xf16, strides=[1]> loc(#loc10)
  %assume_1 = assume bounded<0, ?>, %arg4 : tile<i32> loc(#loc10)
  %assume_assume_2 = assume div_by<8>, %assume_1 : tile<i32> loc(#loc10)
  %1 = make_token : token loc(#loc10)
  %assume_3 = assume div_by<16>, %arg3 : tile<ptr<f16>> loc(#loc10)
  %tview_4 = make_tensor_view %assume_3, shape = [%assume_assume_2], strides = [1] : tile<i32> -> tensor_view<?xf16, strides=[1]> loc(#loc10)
  %assume_5 = assume bounded<0, ?>, %arg7 : tile<i32> loc(#loc10)
  %assume_assume_6 = assume div_by<8>, %assume_5 : tile<i32> loc(#loc10)
  %2 = make_token : token loc(#loc10)
  %assume_7 = assume div_by<16>, %arg6 : tile<ptr<f16>> loc(#loc10)
  %tview_8 = make_tensor_view %assume_7, shape = [%assume_assume_6], strides = [1] : tile<i32> -> tensor_view<?xf16, strides=[1]> loc(#loc10)
  %cst_256_i32_9 = constant <i32: 256> : tile<i32> loc(#loc21)
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32> loc(#loc22)
  %assume_blockId_x = assume bounded<0, ?>, %blockId_x : tile<i32> loc(#loc22)
  %assume_blockId_y = assume bounded<0, ?>, %blockId_y : tile<i32> loc(#loc22)
  %assume_blockId_z = assume bounded<0, ?>, %blockId_z : tile<i32> loc(#loc22)
  %cst_-1_i32 = constant <i32: -1> : tile<i32> loc(#loc21)
  %pview = make_partition_view %tview : partition_view<tile=(256), tensor_view<?xf16, strides=[1]>> loc(#loc23)
  %cst_-1_i32_10 = constant <i32: -1> : tile<i32> loc(#loc21)
  %pview_11 = make_partition_view %tview_4 : partition_view<tile=(256), tensor_view<?xf16, strides=[1]>> loc(#loc24)
  %tile, %result_token = load_view_tko weak %pview[%assume_blockId_x] token = %0 : partition_view<tile=(256), tensor_view<?xf16, strides=[1]>>, tile<i32> -> tile<256xf16>, token loc(#loc25)
  %tile_12, %result_token_13 = load_view_tko weak %pview_11[%assume_blockId_x] token = %1 : partition_view<tile=(256), tensor_view<?xf16, strides=[1]>>, tile<i32> -> tile<256xf16>, token loc(#loc26)
  %3 = addf %tile, %tile_12  : tile<256xf16> loc(#loc27)
  %cst_256_i32_14 = constant <i32: 256> : tile<i32> loc(#loc28)
  %cst_-1_i32_15 = constant <i32: -1> : tile<i32> loc(#loc28)
  %cst_-1_i32_16 = constant <i32: -1> : tile<i32> loc(#loc28)
  %pview_17 = make_partition_view %tview_8 : partition_view<tile=(256), tensor_view<?xf16, strides=[1]>> loc(#loc28)
  %4 = store_view_tko weak %3, %pview_17[%assume_blockId_x] token = %2 : tile<256xf16>, partition_view<tile=(256), tensor_view<?xf16, strides=[1]>>, tile<i32> -> token loc(#loc29)
  return loc(#loc20)
} loc(#loc10)
#di_file = #cuda_tile.di_file<"kernel.rs" in "src">
#loc = loc("fixtures/vector_add/port.rs":3:0)
#loc1 = loc("fixtures/vector_add/port.rs":12:35)
#loc2 = loc("fixtures/vector_add/port.rs":14:12)
#loc3 = loc("fixtures/vector_add/port.rs":16:12)
#loc4 = loc("fixtures/vector_add/port.rs":17:39)
#loc5 = loc("fixtures/vector_add/port.rs":18:39)
#loc6 = loc("fixtures/vector_add/port.rs":19:39)
#loc7 = loc("fixtures/vector_add/port.rs":20:59)
#loc8 = loc("fixtures/vector_add/port.rs":22:21)
#loc9 = loc("fixtures/vector_add/port.rs":11:6)
#di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
#di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 3, name = "vector_add", linkageName = "vector_add_entry", compileUnit = #di_compile_unit, scopeLine = 3>
#di_subprogram1 = #cuda_tile.di_subprogram<file = #di_file, line = 7, name = "vector_add", linkageName = "vector_add@kernel:7:11", compileUnit = #di_compile_unit, scopeLine = 7>
#loc10 = #cuda_tile.di_loc<#loc in #di_subprogram>
#loc11 = #cuda_tile.di_loc<#loc in #di_subprogram1>
#loc12 = #cuda_tile.di_loc<#loc1 in #di_subprogram1>
#loc13 = #cuda_tile.di_loc<#loc2 in #di_subprogram1>
#loc14 = #cuda_tile.di_loc<#loc3 in #di_subprogram1>
#loc15 = #cuda_tile.di_loc<#loc4 in #di_subprogram1>
#loc16 = #cuda_tile.di_loc<#loc5 in #di_subprogram1>
#loc17 = #cuda_tile.di_loc<#loc6 in #di_subprogram1>
#loc18 = #cuda_tile.di_loc<#loc7 in #di_subprogram1>
#loc19 = #cuda_tile.di_loc<#loc8 in #di_subprogram1>
#loc20 = #cuda_tile.di_loc<#loc9 in #di_subprogram>
#loc21 = loc(callsite(#loc11 at #loc10))
#loc22 = loc(callsite(#loc12 at #loc10))
#loc23 = loc(callsite(#loc13 at #loc10))
#loc24 = loc(callsite(#loc14 at #loc10))
#loc25 = loc(callsite(#loc15 at #loc10))
#loc26 = loc(callsite(#loc16 at #loc10))
#loc27 = loc(callsite(#loc17 at #loc10))
#loc28 = loc(callsite(#loc18 at #loc10))
#loc29 = loc(callsite(#loc19 at #loc10))
