// Probe (ctrs test data): how a cutile version encodes -inf constant tiles of bf16 and, as the control, f16
// (docs/cutile-0.5.0.md, "bf16 / f16 constant encoding").
#[cutile::module]
pub mod probe_module {
    use cutile::core::*;

    #[cutile::entry()]
    pub fn probe(z: &mut Tensor<bf16, { [128] }>, w: &mut Tensor<f16, { [128] }>) {
        let t: Tile<bf16, { [128] }> = constant(bf16::NEG_INFINITY, const_shape![128]);
        z.store(t);
        let u: Tile<f16, { [128] }> = constant(f16::NEG_INFINITY, const_shape![128]);
        w.store(u);
    }
}
