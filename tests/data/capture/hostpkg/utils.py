# ctrs test data written for this repo: helpers imported by hostpkg/kernels.py (relatively and absolutely).
OFFSET = 1.0


def next_power_of_2(n: int) -> int:
    return 1 << (n - 1).bit_length()


def offset_tile(t, c):
    return t + c
