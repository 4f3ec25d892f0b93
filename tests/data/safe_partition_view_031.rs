// Hand-written cuTile Rust port of fixtures/vector_add/kernel.py (ctrs fixture).
#[cutile::module]
pub mod vector_add_module {
    use cutile::core::*;

    #[cutile::entry()]
    pub fn vector_add<E: ElementType, const TILE: i32>(
        x: &Tensor<E, { [-1] }>,
        y: &Tensor<E, { [-1] }>,
        z: &Tensor<E, { [-1] }>,
    ) {
        let pid: (i32, i32, i32) = get_tile_block_id();
        let px: Partition<E, { [TILE] }> =
            make_partition_view(x, const_shape![TILE], padding::None, dim_map::Identity, get_tensor_token(x));
        let py: Partition<E, { [TILE] }> =
            make_partition_view(y, const_shape![TILE], padding::None, dim_map::Identity, get_tensor_token(y));
        let lhs: Tile<E, { [TILE] }> = load_view_tko(&px, [pid.0], ordering::Weak, scope::TileBlock, None, tma::Enabled);
        let rhs: Tile<E, { [TILE] }> = load_view_tko(&py, [pid.0], ordering::Weak, scope::TileBlock, None, tma::Enabled);
        let sum: Tile<E, { [TILE] }> = lhs + rhs;
        let mut pz: PartitionMut<E, { [TILE] }> = unsafe { z.partition_full_mut(const_shape![TILE]) };
        let _done: Token =
            unsafe { store_view_tko_mut(&mut pz, sum, [pid.0], ordering::Weak, scope::TileBlock, None, tma::Enabled) };
    }
}
