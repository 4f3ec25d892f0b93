entry @vector_add_Kt1_A1f16_1t1_p16_A1f16_1t1_p16_A1f16_1t1_p16_I256(%arg0: tile<ptr<f16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f16>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<ptr<f16>>, %arg7: tile<i32>, %arg8: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token loc(#loc10)
  %assume = assume div_by<16>, %arg0 : tile<ptr<f16>> loc(#loc11)
  %assume_0 = assume div_by<16>, %arg3 : tile<ptr<f16>> loc(#loc12)
  %assume_1 = assume div_by<16>, %arg6 : tile<ptr<f16>> loc(#loc13)
  %cst_1_i32 = constant <i32: 1> : tile<i32> loc(#loc10)
  %cst_1_i32_2 = constant <i32: 1> : tile<i32> loc(#loc10)
  %cst_1_i32_3 = constant <i32: 1> : tile<i32> loc(#loc10)
  %assume_4 = assume bounded<0, ?>, %arg1 : tile<i32> loc(#loc10)
  %tview = make_tensor_view %assume, shape = [%assume_4], strides = [1] : tile<i32> -> tensor_view<?xf16, strides=[1]> loc(#loc10)
  %assume_5 = assume bounded<0, ?>, %arg4 : tile<i32> loc(#loc10)
  %tview_6 = make_tensor_view %assume_0, shape = [%assume_5], strides = [1] : tile<i32> -> tensor_view<?xf16, strides=[1]> loc(#loc10)
  %assume_7 = assume bounded<0, ?>, %arg7 : tile<i32> loc(#loc10)
  %tview_8 = make_tensor_view %assume_1, shape = [%assume_7], strides = [1] : tile<i32> -> tensor_view<?xf16, strides=[1]> loc(#loc10)
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32> loc(#loc14)
  %pview = make_partition_view %tview : partition_view<tile=(256), tensor_view<?xf16, strides=[1]>> loc(#loc15)
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 : partition_view<tile=(256), tensor_view<?xf16, strides=[1]>>, tile<i32> -> tile<256xf16>, token loc(#loc15)
  %pview_9 = make_partition_view %tview_6 : partition_view<tile=(256), tensor_view<?xf16, strides=[1]>> loc(#loc16)
  %tile_10, %result_token_11 = load_view_tko weak %pview_9[%blockId_x] token = %0 : partition_view<tile=(256), tensor_view<?xf16, strides=[1]>>, tile<i32> -> tile<256xf16>, token loc(#loc16)
  %1 = addf %tile, %tile_10  : tile<256xf16> loc(#loc17)
  %pview_12 = make_partition_view %tview_8 : partition_view<tile=(256), tensor_view<?xf16, strides=[1]>> loc(#loc18)
  %2 = store_view_tko weak %1, %pview_12[%blockId_x] token = %0 : tile<256xf16>, partition_view<tile=(256), tensor_view<?xf16, strides=[1]>>, tile<i32> -> token loc(#loc18)
  return loc(#loc9)
} loc(#loc10)
#di_file = #cuda_tile.di_file<"kernel.py" in "fixtures/vector_add">
#loc = loc("fixtures/vector_add/kernel.py":9:0)
#loc1 = loc("fixtures/vector_add/kernel.py":9:15)
#loc2 = loc("fixtures/vector_add/kernel.py":9:18)
#loc3 = loc("fixtures/vector_add/kernel.py":9:21)
#loc4 = loc("fixtures/vector_add/kernel.py":10:10)
#loc5 = loc("fixtures/vector_add/kernel.py":11:10)
#loc6 = loc("fixtures/vector_add/kernel.py":12:10)
#loc7 = loc("fixtures/vector_add/kernel.py":13:35)
#loc8 = loc("fixtures/vector_add/kernel.py":13:4)
#loc9 = loc(unknown)
#di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
#di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 8, name = "vector_add", linkageName = "vector_add_Kt1_A1f16_1t1_p16_A1f16_1t1_p16_A1f16_1t1_p16_I256", compileUnit = #di_compile_unit, scopeLine = 8>
#loc10 = #cuda_tile.di_loc<#loc in #di_subprogram>
#loc11 = #cuda_tile.di_loc<#loc1 in #di_subprogram>
#loc12 = #cuda_tile.di_loc<#loc2 in #di_subprogram>
#loc13 = #cuda_tile.di_loc<#loc3 in #di_subprogram>
#loc14 = #cuda_tile.di_loc<#loc4 in #di_subprogram>
#loc15 = #cuda_tile.di_loc<#loc5 in #di_subprogram>
#loc16 = #cuda_tile.di_loc<#loc6 in #di_subprogram>
#loc17 = #cuda_tile.di_loc<#loc7 in #di_subprogram>
#loc18 = #cuda_tile.di_loc<#loc8 in #di_subprogram>
