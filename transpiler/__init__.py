"""ctrs: port cuTile Python / Triton-TileIR kernels to cuTile Rust, proven by CUDA Tile IR diffs."""

__version__ = "0.1.0"
