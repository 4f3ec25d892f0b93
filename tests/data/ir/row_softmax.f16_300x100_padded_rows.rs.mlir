entry @row_softmax_entry(%arg0: tile<ptr<f16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f16>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>) {
  %cst_128_i32 = constant <i32: 128> : tile<i32> loc(#loc20)
  %assume = assume bounded<0, ?>, %arg1 : tile<i32> loc(#loc20)
  %assume_assume = assume div_by<4>, %assume : tile<i32> loc(#loc20)
  %assume_0 = assume bounded<0, ?>, %arg2 : tile<i32> loc(#loc20)
  %assume_assume_1 = assume div_by<4>, %assume_0 : tile<i32> loc(#loc20)
  %assume_2 = assume bounded<0, ?>, %arg3 : tile<i32> loc(#loc20)
  %assume_assume_3 = assume div_by<8>, %assume_2 : tile<i32> loc(#loc20)
  %0 = make_token : token loc(#loc20)
  %assume_4 = assume div_by<16>, %arg0 : tile<ptr<f16>> loc(#loc20)
  %tview = make_tensor_view %assume_4, shape = [%assume_assume, %assume_assume_1], strides = [%assume_assume_3, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]> loc(#loc20)
  %assume_5 = assume bounded<0, ?>, %arg6 : tile<i32> loc(#loc20)
  %assume_assume_6 = assume div_by<4>, %assume_5 : tile<i32> loc(#loc20)
  %assume_7 = assume bounded<0, ?>, %arg7 : tile<i32> loc(#loc20)
  %assume_assume_8 = assume div_by<4>, %assume_7 : tile<i32> loc(#loc20)
  %assume_9 = assume bounded<0, ?>, %arg8 : tile<i32> loc(#loc20)
  %assume_assume_10 = assume div_by<4>, %assume_9 : tile<i32> loc(#loc20)
  %1 = make_token : token loc(#loc20)
  %assume_11 = assume div_by<16>, %arg5 : tile<ptr<f16>> loc(#loc20)
  %tview_12 = make_tensor_view %assume_11, shape = [%assume_assume_6, %assume_assume_8], strides = [%assume_assume_10, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]> loc(#loc20)
  %cst_128_i32_13 = constant <i32: 128> : tile<i32> loc(#loc41)
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32> loc(#loc42)
  %assume_blockId_x = assume bounded<0, ?>, %blockId_x : tile<i32> loc(#loc42)
  %assume_blockId_y = assume bounded<0, ?>, %blockId_y : tile<i32> loc(#loc42)
  %assume_blockId_z = assume bounded<0, ?>, %blockId_z : tile<i32> loc(#loc42)
  %cst_-1_i32 = constant <i32: -1> : tile<i32> loc(#loc41)
  %cst_-1_i32_14 = constant <i32: -1> : tile<i32> loc(#loc41)
  %pview = make_partition_view %tview : partition_view<tile=(1x128), padding_value = neg_inf, tensor_view<?x?xf16, strides=[?,1]>> loc(#loc43)
  %cst_0_i32 = constant <i32: 0> : tile<i32> loc(#loc44)
  %tile, %result_token = load_view_tko weak %pview[%assume_blockId_x, %cst_0_i32] token = %0 : partition_view<tile=(1x128), padding_value = neg_inf, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<1x128xf16>, token loc(#loc45)
  %2 = ftof %tile  : tile<1x128xf16> -> tile<1x128xf32> loc(#loc46)
  %reduce = reduce %2 dim=1 identities=[0xFF800000 : f32] : tile<1x128xf32> -> tile<1xf32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %8 = maxf %reduce_lhs, %reduce_rhs : tile<f32> loc(#loc41)
    yield %8 : tile<f32> loc(#loc47)
  } loc(#loc47)
  %cst_1_i32 = constant <i32: 1> : tile<i32> loc(#loc48)
  %cst_1_i32_15 = constant <i32: 1> : tile<i32> loc(#loc48)
  %cst_1_i32_16 = constant <i32: 1> : tile<i32> loc(#loc48)
  %reshape = reshape %reduce : tile<1xf32> -> tile<1x1xf32> loc(#loc48)
  %cst_1_i32_17 = constant <i32: 1> : tile<i32> loc(#loc49)
  %cst_1_i32_18 = constant <i32: 1> : tile<i32> loc(#loc49)
  %cst_1_i32_19 = constant <i32: 1> : tile<i32> loc(#loc49)
  %cst_128_i32_20 = constant <i32: 128> : tile<i32> loc(#loc49)
  %bcast = broadcast %reshape : tile<1x1xf32> -> tile<1x128xf32> loc(#loc49)
  %3 = subf %2, %bcast  : tile<1x128xf32> loc(#loc50)
  %4 = exp %3  : tile<1x128xf32> loc(#loc51)
  %reduce_21 = reduce %4 dim=1 identities=[0.000000e+00 : f32] : tile<1x128xf32> -> tile<1xf32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %8 = addf %reduce_lhs, %reduce_rhs  : tile<f32> loc(#loc41)
    yield %8 : tile<f32> loc(#loc52)
  } loc(#loc52)
  %cst_1_i32_22 = constant <i32: 1> : tile<i32> loc(#loc53)
  %cst_1_i32_23 = constant <i32: 1> : tile<i32> loc(#loc53)
  %cst_1_i32_24 = constant <i32: 1> : tile<i32> loc(#loc53)
  %reshape_25 = reshape %reduce_21 : tile<1xf32> -> tile<1x1xf32> loc(#loc53)
  %cst_1_i32_26 = constant <i32: 1> : tile<i32> loc(#loc54)
  %cst_1_i32_27 = constant <i32: 1> : tile<i32> loc(#loc54)
  %cst_1_i32_28 = constant <i32: 1> : tile<i32> loc(#loc54)
  %cst_128_i32_29 = constant <i32: 128> : tile<i32> loc(#loc54)
  %bcast_30 = broadcast %reshape_25 : tile<1x1xf32> -> tile<1x128xf32> loc(#loc54)
  %5 = divf %4, %bcast_30  : tile<1x128xf32> loc(#loc55)
  %6 = ftof %5  : tile<1x128xf32> -> tile<1x128xf16> loc(#loc56)
  %cst_1_i32_31 = constant <i32: 1> : tile<i32> loc(#loc57)
  %cst_128_i32_32 = constant <i32: 128> : tile<i32> loc(#loc57)
  %cst_-1_i32_33 = constant <i32: -1> : tile<i32> loc(#loc57)
  %cst_-1_i32_34 = constant <i32: -1> : tile<i32> loc(#loc57)
  %cst_-1_i32_35 = constant <i32: -1> : tile<i32> loc(#loc57)
  %cst_-1_i32_36 = constant <i32: -1> : tile<i32> loc(#loc57)
  %pview_37 = make_partition_view %tview_12 : partition_view<tile=(1x128), tensor_view<?x?xf16, strides=[?,1]>> loc(#loc57)
  %cst_0_i32_38 = constant <i32: 0> : tile<i32> loc(#loc58)
  %7 = store_view_tko weak %6, %pview_37[%assume_blockId_x, %cst_0_i32_38] token = %1 : tile<1x128xf16>, partition_view<tile=(1x128), tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> token loc(#loc59)
  return loc(#loc40)
} loc(#loc20)
#di_file = #cuda_tile.di_file<"kernel.rs" in "src">
#loc = loc("fixtures/row_softmax/port.rs":3:0)
#loc1 = loc("fixtures/row_softmax/port.rs":11:35)
#loc2 = loc("fixtures/row_softmax/port.rs":14:12)
#loc3 = loc("fixtures/row_softmax/port.rs":16:37)
#loc4 = loc("fixtures/row_softmax/port.rs":16:12)
#loc5 = loc("fixtures/row_softmax/port.rs":17:45)
#loc6 = loc("fixtures/row_softmax/port.rs":19:40)
#loc7 = loc("fixtures/row_softmax/port.rs":20:44)
#loc8 = loc("fixtures/row_softmax/port.rs":21:44)
#loc9 = loc("fixtures/row_softmax/port.rs":22:50)
#loc10 = loc("fixtures/row_softmax/port.rs":23:44)
#loc11 = loc("fixtures/row_softmax/port.rs":24:40)
#loc12 = loc("fixtures/row_softmax/port.rs":25:44)
#loc13 = loc("fixtures/row_softmax/port.rs":26:44)
#loc14 = loc("fixtures/row_softmax/port.rs":27:44)
#loc15 = loc("fixtures/row_softmax/port.rs":28:44)
#loc16 = loc("fixtures/row_softmax/port.rs":29:64)
#loc17 = loc("fixtures/row_softmax/port.rs":31:60)
#loc18 = loc("fixtures/row_softmax/port.rs":31:21)
#loc19 = loc("fixtures/row_softmax/port.rs":10:6)
#di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
#di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 3, name = "row_softmax", linkageName = "row_softmax_entry", compileUnit = #di_compile_unit, scopeLine = 3>
#di_subprogram1 = #cuda_tile.di_subprogram<file = #di_file, line = 7, name = "row_softmax", linkageName = "row_softmax@kernel:7:11", compileUnit = #di_compile_unit, scopeLine = 7>
#loc20 = #cuda_tile.di_loc<#loc in #di_subprogram>
#loc21 = #cuda_tile.di_loc<#loc in #di_subprogram1>
#loc22 = #cuda_tile.di_loc<#loc1 in #di_subprogram1>
#loc23 = #cuda_tile.di_loc<#loc2 in #di_subprogram1>
#loc24 = #cuda_tile.di_loc<#loc3 in #di_subprogram1>
#loc25 = #cuda_tile.di_loc<#loc4 in #di_subprogram1>
#loc26 = #cuda_tile.di_loc<#loc5 in #di_subprogram1>
#loc27 = #cuda_tile.di_loc<#loc6 in #di_subprogram1>
#loc28 = #cuda_tile.di_loc<#loc7 in #di_subprogram1>
#loc29 = #cuda_tile.di_loc<#loc8 in #di_subprogram1>
#loc30 = #cuda_tile.di_loc<#loc9 in #di_subprogram1>
#loc31 = #cuda_tile.di_loc<#loc10 in #di_subprogram1>
#loc32 = #cuda_tile.di_loc<#loc11 in #di_subprogram1>
#loc33 = #cuda_tile.di_loc<#loc12 in #di_subprogram1>
#loc34 = #cuda_tile.di_loc<#loc13 in #di_subprogram1>
#loc35 = #cuda_tile.di_loc<#loc14 in #di_subprogram1>
#loc36 = #cuda_tile.di_loc<#loc15 in #di_subprogram1>
#loc37 = #cuda_tile.di_loc<#loc16 in #di_subprogram1>
#loc38 = #cuda_tile.di_loc<#loc17 in #di_subprogram1>
#loc39 = #cuda_tile.di_loc<#loc18 in #di_subprogram1>
#loc40 = #cuda_tile.di_loc<#loc19 in #di_subprogram>
#loc41 = loc(callsite(#loc21 at #loc20))
#loc42 = loc(callsite(#loc22 at #loc20))
#loc43 = loc(callsite(#loc23 at #loc20))
#loc44 = loc(callsite(#loc24 at #loc20))
#loc45 = loc(callsite(#loc25 at #loc20))
#loc46 = loc(callsite(#loc26 at #loc20))
#loc47 = loc(callsite(#loc27 at #loc20))
#loc48 = loc(callsite(#loc28 at #loc20))
#loc49 = loc(callsite(#loc29 at #loc20))
#loc50 = loc(callsite(#loc30 at #loc20))
#loc51 = loc(callsite(#loc31 at #loc20))
#loc52 = loc(callsite(#loc32 at #loc20))
#loc53 = loc(callsite(#loc33 at #loc20))
#loc54 = loc(callsite(#loc34 at #loc20))
#loc55 = loc(callsite(#loc35 at #loc20))
#loc56 = loc(callsite(#loc36 at #loc20))
#loc57 = loc(callsite(#loc37 at #loc20))
#loc58 = loc(callsite(#loc38 at #loc20))
#loc59 = loc(callsite(#loc39 at #loc20))
