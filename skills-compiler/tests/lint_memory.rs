//! W009 over many skills with one description keeps one partner per skill,
//! not every similar pair: 5,000 copies are 12.5 million pairs, which took
//! hundreds of MB before (20,000 took 7.9 GB). Measured with a counting
//! allocator, so the test is exact on every machine.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

mod support;

use skills_compiler::{Config, compile_files, similar_descriptions};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

#[test]
fn similar_descriptions_keep_one_partner_per_skill() {
    const COPIES: usize = 5_000;
    let files = support::copies(COPIES);
    let config = Config {
        max_skills: Some(COPIES),
        ..Config::default()
    };
    let skills = compile_files(files, &config).valid.skills;
    assert_eq!(skills.len(), COPIES);
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let found = similar_descriptions(&skills);
    let used = PEAK.load(Ordering::Relaxed) - before;
    // Every copy but the first is reported, once.
    assert_eq!(found.len(), COPIES - 1);
    // The diagnostics themselves take about 2.5 MB; the pairs took 300 MB.
    assert!(used < 16 << 20, "W009 took {} MB at its peak", used >> 20);
}
