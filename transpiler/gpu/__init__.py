"""GPU proof: the host runner (host), the bundle that carries ports to it (bundle), numerics and timing
(proof), fuzz shapes (shapes).
"""
