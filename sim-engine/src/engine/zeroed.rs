//! Per-link arrays whose pages stay unmapped until a flow touches them.
//!
//! A k = 96 fat-tree has 1.3 million directed links; a run of a few flows touches a handful.
//! Zeroed memory from the allocator (`calloc`, fresh `mmap` pages for large sizes) costs no
//! resident memory until written, but Rust's allocator zeroes over-aligned blocks by writing
//! them, and the solver's records are aligned to a cache line on purpose (a 64-byte record
//! that straddles two lines costs a second miss per link). So this asks for zeroed memory at the
//! allocator's own alignment and aligns inside it.

use std::alloc::{alloc_zeroed, dealloc, handle_alloc_error, Layout};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// `len` values of `T`, all zero bytes (`T: Zeroable`, so a valid value), aligned for `T`.
pub struct ZeroedSlice<T: bytemuck::Zeroable + Copy> {
    base: Option<NonNull<u8>>,
    layout: Layout,
    data: NonNull<T>,
    len: usize,
}

// SAFETY: it owns its `T`s like a `Box<[T]>` does.
unsafe impl<T: bytemuck::Zeroable + Copy + Send> Send for ZeroedSlice<T> {}
// SAFETY: shared access only hands out `&[T]`.
unsafe impl<T: bytemuck::Zeroable + Copy + Sync> Sync for ZeroedSlice<T> {}

impl<T: bytemuck::Zeroable + Copy> ZeroedSlice<T> {
    pub fn new(len: usize) -> Self {
        let align = std::mem::align_of::<T>();
        let bytes = std::mem::size_of::<T>()
            .checked_mul(len)
            .expect("array size overflows");
        if bytes == 0 {
            return ZeroedSlice {
                base: None,
                layout: Layout::new::<()>(),
                data: NonNull::dangling(),
                len,
            };
        }
        // 16: what `calloc` guarantees; extra room to move the start to `T`'s alignment
        let layout = Layout::from_size_align(bytes + align, 16).expect("valid layout");
        // SAFETY: `layout` has a non-zero size.
        let base = NonNull::new(unsafe { alloc_zeroed(layout) })
            .unwrap_or_else(|| handle_alloc_error(layout));
        let offset = base.as_ptr().align_offset(align);
        // SAFETY: `offset < align`, so the aligned start and `bytes` after it lie inside the block.
        let data = unsafe { NonNull::new_unchecked(base.as_ptr().add(offset).cast::<T>()) };
        ZeroedSlice {
            base: Some(base),
            layout,
            data,
            len,
        }
    }
}

impl<T: bytemuck::Zeroable + Copy> Drop for ZeroedSlice<T> {
    fn drop(&mut self) {
        if let Some(base) = self.base {
            // SAFETY: allocated in `new` with this layout; `T: Copy` needs no drop.
            unsafe { dealloc(base.as_ptr(), self.layout) }
        }
    }
}

impl<T: bytemuck::Zeroable + Copy> Deref for ZeroedSlice<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `data` is aligned and holds `len` zero-initialised or written `T`s.
        unsafe { std::slice::from_raw_parts(self.data.as_ptr(), self.len) }
    }
}

impl<T: bytemuck::Zeroable + Copy> DerefMut for ZeroedSlice<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as `deref`, and `&mut self` makes the access unique.
        unsafe { std::slice::from_raw_parts_mut(self.data.as_ptr(), self.len) }
    }
}

impl<T: bytemuck::Zeroable + Copy> Clone for ZeroedSlice<T> {
    fn clone(&self) -> Self {
        let mut c = ZeroedSlice::new(self.len);
        c.copy_from_slice(self);
        c
    }
}

impl<T: bytemuck::Zeroable + Copy> Default for ZeroedSlice<T> {
    fn default() -> Self {
        ZeroedSlice::new(0)
    }
}

impl<T: bytemuck::Zeroable + Copy + std::fmt::Debug> std::fmt::Debug for ZeroedSlice<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq, bytemuck::Zeroable)]
    #[repr(C, align(64))]
    struct Line {
        a: f64,
        b: u32,
    }

    #[test]
    fn zeroed_aligned_and_writable() {
        for len in [0, 1, 3, 1000, 300_000] {
            let mut v: ZeroedSlice<Line> = ZeroedSlice::new(len);
            assert_eq!(v.len(), len);
            assert_eq!(v.as_ptr() as usize % 64, 0, "aligned");
            assert!(v.iter().all(|x| *x == Line { a: 0.0, b: 0 }));
            for (i, x) in v.iter_mut().enumerate() {
                x.b = i as u32;
            }
            let c = v.clone();
            assert!(c
                .iter()
                .enumerate()
                .all(|(i, x)| x.b == i as u32 && x.a == 0.0));
        }
    }
}
