// Probe (ctrs test data): how a cutile version encodes typed constant tiles of bf16 (-inf, 1, e) and, as the
// control, f16 -inf (docs/cutile-0.5.0.md, "bf16 / f16 constant encoding").
#[cutile::module]
pub mod probe_module {
    use cutile::core::*;

    #[cutile::entry()]
    pub fn probe(z: &mut Tensor<bf16, { [128] }>, w: &mut Tensor<f16, { [128] }>, o: &mut Tensor<bf16, { [128] }>) {
        let t: Tile<bf16, { [128] }> = constant(bf16::NEG_INFINITY, const_shape![128]);
        z.store(t);
        let u: Tile<f16, { [128] }> = constant(f16::NEG_INFINITY, const_shape![128]);
        w.store(u);
        let one: Tile<bf16, { [128] }> = constant(bf16::ONE, const_shape![128]);
        let e: Tile<bf16, { [128] }> = constant(bf16::E, const_shape![128]);
        o.store(one + e);
    }
}
