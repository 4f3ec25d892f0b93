"""Pointer casts (issue 18, branch ptr18): bytes read as int32 words (a cast of a cast), and bytes loaded and stored
through uint8 casts of a word / float buffer. Offsets after a cast count elements of the new type."""
import triton
import triton.language as tl


@triton.jit
def bytes_as_words(w_ptr, out_ptr, n_words, B: tl.constexpr):
    w_ptr = w_ptr.to(tl.pointer_type(tl.uint8))
    offs = tl.program_id(0) * B + tl.arange(0, B)
    words = tl.load(w_ptr.to(tl.pointer_type(tl.int32)) + offs, mask=offs < n_words, other=0)
    lo = (words & 255).to(tl.float32)
    tl.store(out_ptr + offs, lo.to(out_ptr.dtype.element_ty), mask=offs < n_words)


@triton.jit
def words_as_bytes(src_ptr, dst_ptr, n_bytes, B: tl.constexpr):
    offs = tl.program_id(0) * B + tl.arange(0, B)
    b = tl.load(src_ptr.to(tl.pointer_type(tl.uint8)) + offs, mask=offs < n_bytes, other=0)
    dst = dst_ptr.to(tl.pointer_type(tl.uint8))
    tl.store(dst + offs, b ^ 90, mask=offs < n_bytes)
