entry @layer_norm_persistent_Kt1_A2f32_1v4l0_2t1_p16_A1f32_1t1_p16_A1f32_1t1_p16_A2f32_1v4l0_2t1_p16_Si32_Sf32_I128(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<ptr<f32>>, %arg9: tile<i32>, %arg10: tile<i32>, %arg11: tile<ptr<f32>>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>, %arg15: tile<i32>, %arg16: tile<i32>, %arg17: tile<f32>) optimization_hints=<default = {}> {
  %0 = make_token : token loc(#loc30)
  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>> loc(#loc31)
  %assume_0 = assume div_by<4>, %arg3 : tile<i32> loc(#loc31)
  %assume_1 = assume div_by<16>, %arg5 : tile<ptr<f32>> loc(#loc32)
  %assume_2 = assume div_by<16>, %arg8 : tile<ptr<f32>> loc(#loc33)
  %assume_3 = assume div_by<16>, %arg11 : tile<ptr<f32>> loc(#loc34)
  %assume_4 = assume div_by<4>, %arg14 : tile<i32> loc(#loc34)
  %cst_1_i32 = constant <i32: 1> : tile<i32> loc(#loc30)
  %cst_1_i32_5 = constant <i32: 1> : tile<i32> loc(#loc30)
  %cst_1_i32_6 = constant <i32: 1> : tile<i32> loc(#loc30)
  %cst_1_i32_7 = constant <i32: 1> : tile<i32> loc(#loc30)
  %assume_8 = assume bounded<0, ?>, %arg1 : tile<i32> loc(#loc30)
  %assume_9 = assume bounded<0, ?>, %arg2 : tile<i32> loc(#loc30)
  %assume_assume = assume bounded<0, ?>, %assume_0 : tile<i32> loc(#loc30)
  %assume_assume_assume = assume div_by<4>, %assume_assume : tile<i32> loc(#loc30)
  %tview = make_tensor_view %assume, shape = [%assume_8, %assume_9], strides = [%assume_assume_assume, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]> loc(#loc30)
  %assume_10 = assume bounded<0, ?>, %arg6 : tile<i32> loc(#loc30)
  %tview_11 = make_tensor_view %assume_1, shape = [%assume_10], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]> loc(#loc30)
  %assume_12 = assume bounded<0, ?>, %arg9 : tile<i32> loc(#loc30)
  %tview_13 = make_tensor_view %assume_2, shape = [%assume_12], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]> loc(#loc30)
  %assume_14 = assume bounded<0, ?>, %arg12 : tile<i32> loc(#loc30)
  %assume_15 = assume bounded<0, ?>, %arg13 : tile<i32> loc(#loc30)
  %assume_assume_16 = assume bounded<0, ?>, %assume_4 : tile<i32> loc(#loc30)
  %assume_assume_assume_17 = assume div_by<4>, %assume_assume_16 : tile<i32> loc(#loc30)
  %tview_18 = make_tensor_view %assume_3, shape = [%assume_14, %assume_15], strides = [%assume_assume_assume_17, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]> loc(#loc30)
  %1 = iota : tile<128xi32> loc(#loc35)
  %reshape = reshape %1 : tile<128xi32> -> tile<1x128xi32> loc(#loc36)
  %reshape_19 = reshape %assume_9 : tile<i32> -> tile<1x1xi32> loc(#loc36)
  %bcast = broadcast %reshape_19 : tile<1x1xi32> -> tile<1x128xi32> loc(#loc36)
  %2 = cmpi less_than %reshape, %bcast, signed : tile<1x128xi32> -> tile<1x128xi1> loc(#loc36)
  %cst_0_i32 = constant <i32: 0> : tile<i32> loc(#loc37)
  %pview = make_partition_view %tview_11 : partition_view<tile=(128), padding_value = zero, tensor_view<?xf32, strides=[1]>> loc(#loc38)
  %tile, %result_token = load_view_tko weak %pview[%cst_0_i32] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token loc(#loc38)
  %cst_0_i32_20 = constant <i32: 0> : tile<i32> loc(#loc39)
  %pview_21 = make_partition_view %tview_13 : partition_view<tile=(128), padding_value = zero, tensor_view<?xf32, strides=[1]>> loc(#loc40)
  %tile_22, %result_token_23 = load_view_tko weak %pview_21[%cst_0_i32_20] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token loc(#loc40)
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32> loc(#loc41)
  %gridSize_x, %gridSize_y, %gridSize_z = get_num_tile_blocks : tile<i32> loc(#loc42)
  %cst_0_i32_24 = constant <i32: 0> : tile<i32> loc(#loc43)
  %pview_25 = make_partition_view %tview : partition_view<tile=(1x128), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>> loc(#loc44)
  %3 = itof %assume_9 signed  : tile<i32> -> tile<f32> loc(#loc45)
  %reshape_26 = reshape %3 : tile<f32> -> tile<1x1xf32> loc(#loc45)
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<f32> loc(#loc46)
  %reshape_27 = reshape %cst_0_f32 : tile<f32> -> tile<1x1xf32> loc(#loc47)
  %bcast_28 = broadcast %reshape_27 : tile<1x1xf32> -> tile<1x128xf32> loc(#loc47)
  %4 = itof %assume_9 signed  : tile<i32> -> tile<f32> loc(#loc48)
  %reshape_29 = reshape %4 : tile<f32> -> tile<1x1xf32> loc(#loc48)
  %reshape_30 = reshape %arg17 : tile<f32> -> tile<1x1xf32> loc(#loc49)
  %reshape_31 = reshape %tile : tile<128xf32> -> tile<1x128xf32> loc(#loc50)
  %reshape_32 = reshape %tile_22 : tile<128xf32> -> tile<1x128xf32> loc(#loc51)
  %cst_0_i32_33 = constant <i32: 0> : tile<i32> loc(#loc52)
  %pview_34 = make_partition_view %tview_18 : partition_view<tile=(1x128), tensor_view<?x?xf32, strides=[?,1]>> loc(#loc53)
  for %loopIdx in (%blockId_x to %arg16, step %gridSize_x) : tile<i32> {
    %tile_35, %result_token_36 = load_view_tko weak %pview_25[%loopIdx, %cst_0_i32_24] token = %0 : partition_view<tile=(1x128), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<1x128xf32>, token loc(#loc44)
    %reduce = reduce %tile_35 dim=1 identities=[0.000000e+00 : f32] : tile<1x128xf32> -> tile<1xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %15 = addf %reduce_lhs, %reduce_rhs  : tile<f32> loc(#loc45)
      yield %15 : tile<f32> loc(#loc45)
    } loc(#loc45)
    %reshape_37 = reshape %reduce : tile<1xf32> -> tile<1x1xf32> loc(#loc45)
    %5 = divf %reshape_37, %reshape_26  : tile<1x1xf32> loc(#loc45)
    %bcast_38 = broadcast %5 : tile<1x1xf32> -> tile<1x128xf32> loc(#loc55)
    %6 = subf %tile_35, %bcast_38  : tile<1x128xf32> loc(#loc55)
    %7 = select %2, %6, %bcast_28 : tile<1x128xi1>, tile<1x128xf32> loc(#loc47)
    %8 = mulf %7, %7  : tile<1x128xf32> loc(#loc56)
    %reduce_39 = reduce %8 dim=1 identities=[0.000000e+00 : f32] : tile<1x128xf32> -> tile<1xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %15 = addf %reduce_lhs, %reduce_rhs  : tile<f32> loc(#loc48)
      yield %15 : tile<f32> loc(#loc48)
    } loc(#loc48)
    %reshape_40 = reshape %reduce_39 : tile<1xf32> -> tile<1x1xf32> loc(#loc48)
    %9 = divf %reshape_40, %reshape_29  : tile<1x1xf32> loc(#loc48)
    %10 = addf %9, %reshape_30  : tile<1x1xf32> loc(#loc49)
    %11 = rsqrt %10 : tile<1x1xf32> loc(#loc57)
    %bcast_41 = broadcast %11 : tile<1x1xf32> -> tile<1x128xf32> loc(#loc58)
    %12 = mulf %7, %bcast_41  : tile<1x128xf32> loc(#loc58)
    %13 = fma %12, %reshape_31, %reshape_32  : tile<1x128xf32> loc(#loc58)
    %14 = store_view_tko weak %13, %pview_34[%loopIdx, %cst_0_i32_33] token = %0 : tile<1x128xf32>, partition_view<tile=(1x128), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token loc(#loc53)
  } loc(#loc54)
  return loc(#loc29)
} loc(#loc30)
#di_file = #cuda_tile.di_file<"kernel.py" in "fixtures/layer_norm_persistent">
#loc = loc("fixtures/layer_norm_persistent/kernel.py":16:0)
#loc1 = loc("fixtures/layer_norm_persistent/kernel.py":16:26)
#loc2 = loc("fixtures/layer_norm_persistent/kernel.py":16:29)
#loc3 = loc("fixtures/layer_norm_persistent/kernel.py":16:32)
#loc4 = loc("fixtures/layer_norm_persistent/kernel.py":16:35)
#loc5 = loc("fixtures/layer_norm_persistent/kernel.py":18:11)
#loc6 = loc("fixtures/layer_norm_persistent/kernel.py":19:13)
#loc7 = loc("fixtures/layer_norm_persistent/kernel.py":20:37)
#loc8 = loc("fixtures/layer_norm_persistent/kernel.py":20:19)
#loc9 = loc("fixtures/layer_norm_persistent/kernel.py":21:37)
#loc10 = loc("fixtures/layer_norm_persistent/kernel.py":21:19)
#loc11 = loc("fixtures/layer_norm_persistent/kernel.py":22:21)
#loc12 = loc("fixtures/layer_norm_persistent/kernel.py":22:40)
#loc13 = loc("fixtures/layer_norm_persistent/kernel.py":23:35)
#loc14 = loc("fixtures/layer_norm_persistent/kernel.py":23:12)
#loc15 = loc("fixtures/layer_norm_persistent/kernel.py":25:15)
#loc16 = loc("fixtures/layer_norm_persistent/kernel.py":26:46)
#loc17 = loc("fixtures/layer_norm_persistent/kernel.py":26:19)
#loc18 = loc("fixtures/layer_norm_persistent/kernel.py":27:14)
#loc19 = loc("fixtures/layer_norm_persistent/kernel.py":28:23)
#loc20 = loc("fixtures/layer_norm_persistent/kernel.py":29:31)
#loc21 = loc("fixtures/layer_norm_persistent/kernel.py":29:45)
#loc22 = loc("fixtures/layer_norm_persistent/kernel.py":30:32)
#loc23 = loc("fixtures/layer_norm_persistent/kernel.py":30:8)
#loc24 = loc("fixtures/layer_norm_persistent/kernel.py":22:4)
#loc25 = loc("fixtures/layer_norm_persistent/kernel.py":26:36)
#loc26 = loc("fixtures/layer_norm_persistent/kernel.py":27:21)
#loc27 = loc("fixtures/layer_norm_persistent/kernel.py":28:14)
#loc28 = loc("fixtures/layer_norm_persistent/kernel.py":29:14)
#loc29 = loc(unknown)
#di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
#di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 15, name = "layer_norm_persistent", linkageName = "layer_norm_persistent_Kt1_A2f32_1v4l0_2t1_p16_A1f32_1t1_p16_A1f32_1t1_p16_A2f32_1v4l0_2t1_p16_Si32_Sf32_I128", compileUnit = #di_compile_unit, scopeLine = 15>
#loc30 = #cuda_tile.di_loc<#loc in #di_subprogram>
#loc31 = #cuda_tile.di_loc<#loc1 in #di_subprogram>
#loc32 = #cuda_tile.di_loc<#loc2 in #di_subprogram>
#loc33 = #cuda_tile.di_loc<#loc3 in #di_subprogram>
#loc34 = #cuda_tile.di_loc<#loc4 in #di_subprogram>
#loc35 = #cuda_tile.di_loc<#loc5 in #di_subprogram>
#loc36 = #cuda_tile.di_loc<#loc6 in #di_subprogram>
#loc37 = #cuda_tile.di_loc<#loc7 in #di_subprogram>
#loc38 = #cuda_tile.di_loc<#loc8 in #di_subprogram>
#loc39 = #cuda_tile.di_loc<#loc9 in #di_subprogram>
#loc40 = #cuda_tile.di_loc<#loc10 in #di_subprogram>
#loc41 = #cuda_tile.di_loc<#loc11 in #di_subprogram>
#loc42 = #cuda_tile.di_loc<#loc12 in #di_subprogram>
#loc43 = #cuda_tile.di_loc<#loc13 in #di_subprogram>
#loc44 = #cuda_tile.di_loc<#loc14 in #di_subprogram>
#loc45 = #cuda_tile.di_loc<#loc15 in #di_subprogram>
#loc46 = #cuda_tile.di_loc<#loc16 in #di_subprogram>
#loc47 = #cuda_tile.di_loc<#loc17 in #di_subprogram>
#loc48 = #cuda_tile.di_loc<#loc18 in #di_subprogram>
#loc49 = #cuda_tile.di_loc<#loc19 in #di_subprogram>
#loc50 = #cuda_tile.di_loc<#loc20 in #di_subprogram>
#loc51 = #cuda_tile.di_loc<#loc21 in #di_subprogram>
#loc52 = #cuda_tile.di_loc<#loc22 in #di_subprogram>
#loc53 = #cuda_tile.di_loc<#loc23 in #di_subprogram>
#loc54 = #cuda_tile.di_loc<#loc24 in #di_subprogram>
#loc55 = #cuda_tile.di_loc<#loc25 in #di_subprogram>
#loc56 = #cuda_tile.di_loc<#loc26 in #di_subprogram>
#loc57 = #cuda_tile.di_loc<#loc27 in #di_subprogram>
#loc58 = #cuda_tile.di_loc<#loc28 in #di_subprogram>
