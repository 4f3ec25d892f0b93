"""Front ends that lower kernel sources straight into the typed tile IR (transpiler/ir)."""
