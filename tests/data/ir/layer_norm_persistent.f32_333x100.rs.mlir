entry @layer_norm_persistent_entry(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<ptr<f32>>, %arg9: tile<i32>, %arg10: tile<i32>, %arg11: tile<ptr<f32>>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>, %arg15: tile<i32>, %arg16: tile<i32>, %arg17: tile<f32>) {
  %cst_128_i32 = constant <i32: 128> : tile<i32> loc(#loc45)
  %assume = assume bounded<0, ?>, %arg1 : tile<i32> loc(#loc45)
  %assume_0 = assume bounded<0, ?>, %arg2 : tile<i32> loc(#loc45)
  %assume_assume = assume div_by<4>, %assume_0 : tile<i32> loc(#loc45)
  %assume_1 = assume bounded<0, ?>, %arg3 : tile<i32> loc(#loc45)
  %assume_assume_2 = assume div_by<4>, %assume_1 : tile<i32> loc(#loc45)
  %0 = make_token : token loc(#loc45)
  %assume_3 = assume div_by<16>, %arg0 : tile<ptr<f32>> loc(#loc45)
  %tview = make_tensor_view %assume_3, shape = [%assume, %assume_assume], strides = [%assume_assume_2, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]> loc(#loc45)
  %assume_4 = assume bounded<0, ?>, %arg6 : tile<i32> loc(#loc45)
  %assume_assume_5 = assume div_by<4>, %assume_4 : tile<i32> loc(#loc45)
  %1 = make_token : token loc(#loc45)
  %assume_6 = assume div_by<16>, %arg5 : tile<ptr<f32>> loc(#loc45)
  %tview_7 = make_tensor_view %assume_6, shape = [%assume_assume_5], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]> loc(#loc45)
  %assume_8 = assume bounded<0, ?>, %arg9 : tile<i32> loc(#loc45)
  %assume_assume_9 = assume div_by<4>, %assume_8 : tile<i32> loc(#loc45)
  %2 = make_token : token loc(#loc45)
  %assume_10 = assume div_by<16>, %arg8 : tile<ptr<f32>> loc(#loc45)
  %tview_11 = make_tensor_view %assume_10, shape = [%assume_assume_9], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]> loc(#loc45)
  %assume_12 = assume bounded<0, ?>, %arg12 : tile<i32> loc(#loc45)
  %assume_13 = assume bounded<0, ?>, %arg13 : tile<i32> loc(#loc45)
  %assume_assume_14 = assume div_by<4>, %assume_13 : tile<i32> loc(#loc45)
  %assume_15 = assume bounded<0, ?>, %arg14 : tile<i32> loc(#loc45)
  %assume_assume_16 = assume div_by<4>, %assume_15 : tile<i32> loc(#loc45)
  %3 = make_token : token loc(#loc45)
  %assume_17 = assume div_by<16>, %arg11 : tile<ptr<f32>> loc(#loc45)
  %tview_18 = make_tensor_view %assume_17, shape = [%assume_12, %assume_assume_14], strides = [%assume_assume_16, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]> loc(#loc45)
  %cst_128_i32_19 = constant <i32: 128> : tile<i32> loc(#loc91)
  %cst_-1_i32 = constant <i32: -1> : tile<i32> loc(#loc92)
  %cst_-1_i32_20 = constant <i32: -1> : tile<i32> loc(#loc92)
  %cst_1_i32 = constant <i32: 1> : tile<i32> loc(#loc93)
  %4 = iota : tile<128xi32> loc(#loc94)
  %cst_128_i32_21 = constant <i32: 128> : tile<i32> loc(#loc95)
  %cst_1_i32_22 = constant <i32: 1> : tile<i32> loc(#loc95)
  %cst_128_i32_23 = constant <i32: 128> : tile<i32> loc(#loc95)
  %reshape = reshape %4 : tile<128xi32> -> tile<1x128xi32> loc(#loc95)
  %cst_1_i32_24 = constant <i32: 1> : tile<i32> loc(#loc96)
  %cst_128_i32_25 = constant <i32: 128> : tile<i32> loc(#loc96)
  %cst_1_i32_26 = constant <i32: 1> : tile<i32> loc(#loc96)
  %cst_1_i32_27 = constant <i32: 1> : tile<i32> loc(#loc96)
  %cst_1_i32_28 = constant <i32: 1> : tile<i32> loc(#loc96)
  %reshape_29 = reshape %assume_assume : tile<i32> -> tile<1x1xi32> loc(#loc96)
  %cst_1_i32_30 = constant <i32: 1> : tile<i32> loc(#loc96)
  %cst_1_i32_31 = constant <i32: 1> : tile<i32> loc(#loc96)
  %cst_1_i32_32 = constant <i32: 1> : tile<i32> loc(#loc96)
  %cst_128_i32_33 = constant <i32: 128> : tile<i32> loc(#loc96)
  %bcast = broadcast %reshape_29 : tile<1x1xi32> -> tile<1x128xi32> loc(#loc96)
  %5 = cmpi less_than %reshape, %bcast, signed : tile<1x128xi32> -> tile<1x128xi1> loc(#loc97)
  %cst_-1_i32_34 = constant <i32: -1> : tile<i32> loc(#loc91)
  %pview = make_partition_view %tview_7 : partition_view<tile=(128), padding_value = zero, tensor_view<?xf32, strides=[1]>> loc(#loc98)
  %cst_0_i32 = constant <i32: 0> : tile<i32> loc(#loc99)
  %tile, %result_token = load_view_tko weak %pview[%cst_0_i32] token = %1 : partition_view<tile=(128), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token loc(#loc100)
  %cst_-1_i32_35 = constant <i32: -1> : tile<i32> loc(#loc91)
  %pview_36 = make_partition_view %tview_11 : partition_view<tile=(128), padding_value = zero, tensor_view<?xf32, strides=[1]>> loc(#loc101)
  %cst_0_i32_37 = constant <i32: 0> : tile<i32> loc(#loc102)
  %tile_38, %result_token_39 = load_view_tko weak %pview_36[%cst_0_i32_37] token = %2 : partition_view<tile=(128), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token loc(#loc103)
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32> loc(#loc104)
  %assume_blockId_x = assume bounded<0, ?>, %blockId_x : tile<i32> loc(#loc104)
  %assume_blockId_y = assume bounded<0, ?>, %blockId_y : tile<i32> loc(#loc104)
  %assume_blockId_z = assume bounded<0, ?>, %blockId_z : tile<i32> loc(#loc104)
  %gridSize_x, %gridSize_y, %gridSize_z = get_num_tile_blocks : tile<i32> loc(#loc105)
  %assume_gridSize_x = assume bounded<0, ?>, %gridSize_x : tile<i32> loc(#loc105)
  %assume_gridSize_y = assume bounded<0, ?>, %gridSize_y : tile<i32> loc(#loc105)
  %assume_gridSize_z = assume bounded<0, ?>, %gridSize_z : tile<i32> loc(#loc105)
  %cst_-1_i32_40 = constant <i32: -1> : tile<i32> loc(#loc91)
  %cst_-1_i32_41 = constant <i32: -1> : tile<i32> loc(#loc91)
  %pview_42 = make_partition_view %tview : partition_view<tile=(1x128), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>> loc(#loc106)
  %6 = itof %assume_assume signed  : tile<i32> -> tile<f32> loc(#loc107)
  %cst_1_i32_43 = constant <i32: 1> : tile<i32> loc(#loc108)
  %cst_1_i32_44 = constant <i32: 1> : tile<i32> loc(#loc108)
  %reshape_45 = reshape %6 : tile<f32> -> tile<1x1xf32> loc(#loc108)
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<f32> loc(#loc109)
  %cst_1_i32_46 = constant <i32: 1> : tile<i32> loc(#loc110)
  %cst_1_i32_47 = constant <i32: 1> : tile<i32> loc(#loc110)
  %reshape_48 = reshape %cst_0_f32 : tile<f32> -> tile<1x1xf32> loc(#loc110)
  %cst_1_i32_49 = constant <i32: 1> : tile<i32> loc(#loc111)
  %cst_1_i32_50 = constant <i32: 1> : tile<i32> loc(#loc111)
  %cst_1_i32_51 = constant <i32: 1> : tile<i32> loc(#loc111)
  %cst_128_i32_52 = constant <i32: 128> : tile<i32> loc(#loc111)
  %bcast_53 = broadcast %reshape_48 : tile<1x1xf32> -> tile<1x128xf32> loc(#loc111)
  %cst_1_i32_54 = constant <i32: 1> : tile<i32> loc(#loc112)
  %cst_1_i32_55 = constant <i32: 1> : tile<i32> loc(#loc112)
  %reshape_56 = reshape %arg17 : tile<f32> -> tile<1x1xf32> loc(#loc112)
  %cst_128_i32_57 = constant <i32: 128> : tile<i32> loc(#loc113)
  %cst_1_i32_58 = constant <i32: 1> : tile<i32> loc(#loc113)
  %cst_128_i32_59 = constant <i32: 128> : tile<i32> loc(#loc113)
  %reshape_60 = reshape %tile : tile<128xf32> -> tile<1x128xf32> loc(#loc113)
  %cst_128_i32_61 = constant <i32: 128> : tile<i32> loc(#loc114)
  %cst_1_i32_62 = constant <i32: 1> : tile<i32> loc(#loc114)
  %cst_128_i32_63 = constant <i32: 128> : tile<i32> loc(#loc114)
  %reshape_64 = reshape %tile_38 : tile<128xf32> -> tile<1x128xf32> loc(#loc114)
  %cst_1_i32_65 = constant <i32: 1> : tile<i32> loc(#loc115)
  %cst_128_i32_66 = constant <i32: 128> : tile<i32> loc(#loc115)
  %cst_-1_i32_67 = constant <i32: -1> : tile<i32> loc(#loc115)
  %cst_-1_i32_68 = constant <i32: -1> : tile<i32> loc(#loc115)
  %cst_-1_i32_69 = constant <i32: -1> : tile<i32> loc(#loc115)
  %cst_-1_i32_70 = constant <i32: -1> : tile<i32> loc(#loc115)
  %pview_71 = make_partition_view %tview_18 : partition_view<tile=(1x128), tensor_view<?x?xf32, strides=[?,1]>> loc(#loc115)
  %cst_0_i32_72 = constant <i32: 0> : tile<i32> loc(#loc116)
  for %loopIdx in (%assume_blockId_x to %arg16, step %assume_gridSize_x) : tile<i32> {
    %tile_73, %result_token_74 = load_view_tko weak %pview_42[%loopIdx, %cst_0_i32_72] token = %0 : partition_view<tile=(1x128), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<1x128xf32>, token loc(#loc118)
    %reduce = reduce %tile_73 dim=1 identities=[0.000000e+00 : f32] : tile<1x128xf32> -> tile<1xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %17 = addf %reduce_lhs, %reduce_rhs  : tile<f32> loc(#loc91)
      yield %17 : tile<f32> loc(#loc119)
    } loc(#loc119)
    %cst_1_i32_75 = constant <i32: 1> : tile<i32> loc(#loc120)
    %cst_1_i32_76 = constant <i32: 1> : tile<i32> loc(#loc120)
    %cst_1_i32_77 = constant <i32: 1> : tile<i32> loc(#loc120)
    %reshape_78 = reshape %reduce : tile<1xf32> -> tile<1x1xf32> loc(#loc120)
    %7 = divf %reshape_78, %reshape_45  : tile<1x1xf32> loc(#loc121)
    %cst_1_i32_79 = constant <i32: 1> : tile<i32> loc(#loc122)
    %cst_1_i32_80 = constant <i32: 1> : tile<i32> loc(#loc122)
    %cst_1_i32_81 = constant <i32: 1> : tile<i32> loc(#loc122)
    %cst_128_i32_82 = constant <i32: 128> : tile<i32> loc(#loc122)
    %bcast_83 = broadcast %7 : tile<1x1xf32> -> tile<1x128xf32> loc(#loc122)
    %8 = subf %tile_73, %bcast_83  : tile<1x128xf32> loc(#loc123)
    %9 = select %5, %8, %bcast_53 : tile<1x128xi1>, tile<1x128xf32> loc(#loc124)
    %10 = mulf %9, %9  : tile<1x128xf32> loc(#loc125)
    %reduce_84 = reduce %10 dim=1 identities=[0.000000e+00 : f32] : tile<1x128xf32> -> tile<1xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %17 = addf %reduce_lhs, %reduce_rhs  : tile<f32> loc(#loc91)
      yield %17 : tile<f32> loc(#loc126)
    } loc(#loc126)
    %cst_1_i32_85 = constant <i32: 1> : tile<i32> loc(#loc127)
    %cst_1_i32_86 = constant <i32: 1> : tile<i32> loc(#loc127)
    %cst_1_i32_87 = constant <i32: 1> : tile<i32> loc(#loc127)
    %reshape_88 = reshape %reduce_84 : tile<1xf32> -> tile<1x1xf32> loc(#loc127)
    %11 = divf %reshape_88, %reshape_45  : tile<1x1xf32> loc(#loc128)
    %12 = addf %11, %reshape_56  : tile<1x1xf32> loc(#loc129)
    %13 = rsqrt %12 : tile<1x1xf32> loc(#loc130)
    %cst_1_i32_89 = constant <i32: 1> : tile<i32> loc(#loc131)
    %cst_1_i32_90 = constant <i32: 1> : tile<i32> loc(#loc131)
    %cst_1_i32_91 = constant <i32: 1> : tile<i32> loc(#loc131)
    %cst_128_i32_92 = constant <i32: 128> : tile<i32> loc(#loc131)
    %bcast_93 = broadcast %13 : tile<1x1xf32> -> tile<1x128xf32> loc(#loc131)
    %14 = mulf %9, %bcast_93  : tile<1x128xf32> loc(#loc132)
    %15 = fma %14, %reshape_60, %reshape_64  : tile<1x128xf32> loc(#loc133)
    %16 = store_view_tko weak %15, %pview_71[%loopIdx, %cst_0_i32_72] token = %3 : tile<1x128xf32>, partition_view<tile=(1x128), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token loc(#loc134)
  } loc(#loc117)
  return loc(#loc90)
} loc(#loc45)
#di_file = #cuda_tile.di_file<"kernel.rs" in "src">
#loc = loc("fixtures/layer_norm_persistent/port.rs":5:0)
#loc1 = loc("fixtures/layer_norm_persistent/port.rs":17:43)
#loc2 = loc("fixtures/layer_norm_persistent/port.rs":18:34)
#loc3 = loc("fixtures/layer_norm_persistent/port.rs":20:44)
#loc4 = loc("fixtures/layer_norm_persistent/port.rs":21:51)
#loc5 = loc("fixtures/layer_norm_persistent/port.rs":22:51)
#loc6 = loc("fixtures/layer_norm_persistent/port.rs":23:50)
#loc7 = loc("fixtures/layer_norm_persistent/port.rs":25:12)
#loc8 = loc("fixtures/layer_norm_persistent/port.rs":26:63)
#loc9 = loc("fixtures/layer_norm_persistent/port.rs":26:43)
#loc10 = loc("fixtures/layer_norm_persistent/port.rs":29:12)
#loc11 = loc("fixtures/layer_norm_persistent/port.rs":30:63)
#loc12 = loc("fixtures/layer_norm_persistent/port.rs":30:43)
#loc13 = loc("fixtures/layer_norm_persistent/port.rs":32:35)
#loc14 = loc("fixtures/layer_norm_persistent/port.rs":33:36)
#loc15 = loc("fixtures/layer_norm_persistent/port.rs":35:12)
#loc16 = loc("fixtures/layer_norm_persistent/port.rs":37:23)
#loc17 = loc("fixtures/layer_norm_persistent/port.rs":39:44)
#loc18 = loc("fixtures/layer_norm_persistent/port.rs":41:40)
#loc19 = loc("fixtures/layer_norm_persistent/port.rs":42:44)
#loc20 = loc("fixtures/layer_norm_persistent/port.rs":43:47)
#loc21 = loc("fixtures/layer_norm_persistent/port.rs":45:46)
#loc22 = loc("fixtures/layer_norm_persistent/port.rs":46:48)
#loc23 = loc("fixtures/layer_norm_persistent/port.rs":47:48)
#loc24 = loc("fixtures/layer_norm_persistent/port.rs":48:64)
#loc25 = loc("fixtures/layer_norm_persistent/port.rs":50:24)
#loc26 = loc("fixtures/layer_norm_persistent/port.rs":51:8)
#loc27 = loc("fixtures/layer_norm_persistent/port.rs":53:16)
#loc28 = loc("fixtures/layer_norm_persistent/port.rs":55:46)
#loc29 = loc("fixtures/layer_norm_persistent/port.rs":56:50)
#loc30 = loc("fixtures/layer_norm_persistent/port.rs":57:46)
#loc31 = loc("fixtures/layer_norm_persistent/port.rs":58:53)
#loc32 = loc("fixtures/layer_norm_persistent/port.rs":59:51)
#loc33 = loc("fixtures/layer_norm_persistent/port.rs":60:55)
#loc34 = loc("fixtures/layer_norm_persistent/port.rs":61:49)
#loc35 = loc("fixtures/layer_norm_persistent/port.rs":62:46)
#loc36 = loc("fixtures/layer_norm_persistent/port.rs":63:50)
#loc37 = loc("fixtures/layer_norm_persistent/port.rs":64:45)
#loc38 = loc("fixtures/layer_norm_persistent/port.rs":65:49)
#loc39 = loc("fixtures/layer_norm_persistent/port.rs":66:45)
#loc40 = loc("fixtures/layer_norm_persistent/port.rs":67:52)
#loc41 = loc("fixtures/layer_norm_persistent/port.rs":68:53)
#loc42 = loc("fixtures/layer_norm_persistent/port.rs":70:52)
#loc43 = loc("fixtures/layer_norm_persistent/port.rs":73:16)
#loc44 = loc("fixtures/layer_norm_persistent/port.rs":16:6)
#di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
#di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 5, name = "layer_norm_persistent", linkageName = "layer_norm_persistent_entry", compileUnit = #di_compile_unit, scopeLine = 5>
#di_subprogram1 = #cuda_tile.di_subprogram<file = #di_file, line = 9, name = "layer_norm_persistent", linkageName = "layer_norm_persistent@kernel:9:11", compileUnit = #di_compile_unit, scopeLine = 9>
#loc45 = #cuda_tile.di_loc<#loc in #di_subprogram>
#loc46 = #cuda_tile.di_loc<#loc in #di_subprogram1>
#loc47 = #cuda_tile.di_loc<#loc1 in #di_subprogram1>
#loc48 = #cuda_tile.di_loc<#loc2 in #di_subprogram1>
#loc49 = #cuda_tile.di_loc<#loc3 in #di_subprogram1>
#loc50 = #cuda_tile.di_loc<#loc4 in #di_subprogram1>
#loc51 = #cuda_tile.di_loc<#loc5 in #di_subprogram1>
#loc52 = #cuda_tile.di_loc<#loc6 in #di_subprogram1>
#loc53 = #cuda_tile.di_loc<#loc7 in #di_subprogram1>
#loc54 = #cuda_tile.di_loc<#loc8 in #di_subprogram1>
#loc55 = #cuda_tile.di_loc<#loc9 in #di_subprogram1>
#loc56 = #cuda_tile.di_loc<#loc10 in #di_subprogram1>
#loc57 = #cuda_tile.di_loc<#loc11 in #di_subprogram1>
#loc58 = #cuda_tile.di_loc<#loc12 in #di_subprogram1>
#loc59 = #cuda_tile.di_loc<#loc13 in #di_subprogram1>
#loc60 = #cuda_tile.di_loc<#loc14 in #di_subprogram1>
#loc61 = #cuda_tile.di_loc<#loc15 in #di_subprogram1>
#loc62 = #cuda_tile.di_loc<#loc16 in #di_subprogram1>
#loc63 = #cuda_tile.di_loc<#loc17 in #di_subprogram1>
#loc64 = #cuda_tile.di_loc<#loc18 in #di_subprogram1>
#loc65 = #cuda_tile.di_loc<#loc19 in #di_subprogram1>
#loc66 = #cuda_tile.di_loc<#loc20 in #di_subprogram1>
#loc67 = #cuda_tile.di_loc<#loc21 in #di_subprogram1>
#loc68 = #cuda_tile.di_loc<#loc22 in #di_subprogram1>
#loc69 = #cuda_tile.di_loc<#loc23 in #di_subprogram1>
#loc70 = #cuda_tile.di_loc<#loc24 in #di_subprogram1>
#loc71 = #cuda_tile.di_loc<#loc25 in #di_subprogram1>
#loc72 = #cuda_tile.di_loc<#loc26 in #di_subprogram1>
#loc73 = #cuda_tile.di_loc<#loc27 in #di_subprogram1>
#loc74 = #cuda_tile.di_loc<#loc28 in #di_subprogram1>
#loc75 = #cuda_tile.di_loc<#loc29 in #di_subprogram1>
#loc76 = #cuda_tile.di_loc<#loc30 in #di_subprogram1>
#loc77 = #cuda_tile.di_loc<#loc31 in #di_subprogram1>
#loc78 = #cuda_tile.di_loc<#loc32 in #di_subprogram1>
#loc79 = #cuda_tile.di_loc<#loc33 in #di_subprogram1>
#loc80 = #cuda_tile.di_loc<#loc34 in #di_subprogram1>
#loc81 = #cuda_tile.di_loc<#loc35 in #di_subprogram1>
#loc82 = #cuda_tile.di_loc<#loc36 in #di_subprogram1>
#loc83 = #cuda_tile.di_loc<#loc37 in #di_subprogram1>
#loc84 = #cuda_tile.di_loc<#loc38 in #di_subprogram1>
#loc85 = #cuda_tile.di_loc<#loc39 in #di_subprogram1>
#loc86 = #cuda_tile.di_loc<#loc40 in #di_subprogram1>
#loc87 = #cuda_tile.di_loc<#loc41 in #di_subprogram1>
#loc88 = #cuda_tile.di_loc<#loc42 in #di_subprogram1>
#loc89 = #cuda_tile.di_loc<#loc43 in #di_subprogram1>
#loc90 = #cuda_tile.di_loc<#loc44 in #di_subprogram>
#loc91 = loc(callsite(#loc46 at #loc45))
#loc92 = loc(callsite(#loc47 at #loc45))
#loc93 = loc(callsite(#loc48 at #loc45))
#loc94 = loc(callsite(#loc49 at #loc45))
#loc95 = loc(callsite(#loc50 at #loc45))
#loc96 = loc(callsite(#loc51 at #loc45))
#loc97 = loc(callsite(#loc52 at #loc45))
#loc98 = loc(callsite(#loc53 at #loc45))
#loc99 = loc(callsite(#loc54 at #loc45))
#loc100 = loc(callsite(#loc55 at #loc45))
#loc101 = loc(callsite(#loc56 at #loc45))
#loc102 = loc(callsite(#loc57 at #loc45))
#loc103 = loc(callsite(#loc58 at #loc45))
#loc104 = loc(callsite(#loc59 at #loc45))
#loc105 = loc(callsite(#loc60 at #loc45))
#loc106 = loc(callsite(#loc61 at #loc45))
#loc107 = loc(callsite(#loc62 at #loc45))
#loc108 = loc(callsite(#loc63 at #loc45))
#loc109 = loc(callsite(#loc64 at #loc45))
#loc110 = loc(callsite(#loc65 at #loc45))
#loc111 = loc(callsite(#loc66 at #loc45))
#loc112 = loc(callsite(#loc67 at #loc45))
#loc113 = loc(callsite(#loc68 at #loc45))
#loc114 = loc(callsite(#loc69 at #loc45))
#loc115 = loc(callsite(#loc70 at #loc45))
#loc116 = loc(callsite(#loc71 at #loc45))
#loc117 = loc(callsite(#loc72 at #loc45))
#loc118 = loc(callsite(#loc73 at #loc45))
#loc119 = loc(callsite(#loc74 at #loc45))
#loc120 = loc(callsite(#loc75 at #loc45))
#loc121 = loc(callsite(#loc76 at #loc45))
#loc122 = loc(callsite(#loc77 at #loc45))
#loc123 = loc(callsite(#loc78 at #loc45))
#loc124 = loc(callsite(#loc79 at #loc45))
#loc125 = loc(callsite(#loc80 at #loc45))
#loc126 = loc(callsite(#loc81 at #loc45))
#loc127 = loc(callsite(#loc82 at #loc45))
#loc128 = loc(callsite(#loc83 at #loc45))
#loc129 = loc(callsite(#loc84 at #loc45))
#loc130 = loc(callsite(#loc85 at #loc45))
#loc131 = loc(callsite(#loc86 at #loc45))
#loc132 = loc(callsite(#loc87 at #loc45))
#loc133 = loc(callsite(#loc88 at #loc45))
#loc134 = loc(callsite(#loc89 at #loc45))
