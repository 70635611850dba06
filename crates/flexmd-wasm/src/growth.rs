//! The module's allocator: the standard one, made to grow WebAssembly
//! memory in large steps.
//!
//! The standard allocator asks for memory a page (64 KiB) or a few at a
//! time, and each `memory.grow` costs the engine far more than the bytes:
//! it detaches the `ArrayBuffer` JavaScript holds, and Node then collects
//! garbage. Parsing an 18 MB JSON artifact (about 150 MB of values) took
//! 41 s, against 0.12 s once the memory was there. So when an allocation
//! has grown the memory, this one reserves more at once: half of the
//! memory's size (1 to 64 MiB), allocated and freed straight away, so the
//! standard allocator keeps it for the allocations that follow. The
//! memory then grows a few dozen times instead of thousands; at most
//! 64 MiB of it waits unused.

use std::alloc::{GlobalAlloc, Layout, System};

use core::arch::wasm32::memory_size;

const PAGE: usize = 64 << 10;
const MIN_STEP: usize = 1 << 20;
const MAX_STEP: usize = 64 << 20;

/// The standard allocator, growing the memory in large steps.
pub(crate) struct GrowInSteps;

impl GrowInSteps {
    /// After a growth: reserve the next step.
    fn reserve(&self) {
        let step = (memory_size(0) * PAGE / 2).clamp(MIN_STEP, MAX_STEP);
        if let Ok(layout) = Layout::from_size_align(step, 16) {
            // SAFETY: `layout` has a non-zero size; the block is freed
            // with the same layout it was allocated with.
            #[allow(unsafe_code, reason = "GlobalAlloc is an unsafe trait")]
            unsafe {
                let block = System.alloc(layout);
                if !block.is_null() {
                    System.dealloc(block, layout);
                }
            }
        }
    }
}

// SAFETY: every method hands the call to `System` unchanged; `reserve`
// only allocates and frees a block of its own.
#[allow(unsafe_code, reason = "GlobalAlloc is an unsafe trait")]
unsafe impl GlobalAlloc for GrowInSteps {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let before = memory_size(0);
        // SAFETY: the caller's contract, passed on.
        let block = unsafe { System.alloc(layout) };
        if memory_size(0) > before {
            self.reserve();
        }
        block
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let before = memory_size(0);
        // SAFETY: the caller's contract, passed on.
        let block = unsafe { System.alloc_zeroed(layout) };
        if memory_size(0) > before {
            self.reserve();
        }
        block
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(block, layout) }
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let before = memory_size(0);
        // SAFETY: the caller's contract, passed on.
        let moved = unsafe { System.realloc(block, layout, new_size) };
        if memory_size(0) > before {
            self.reserve();
        }
        moved
    }
}
