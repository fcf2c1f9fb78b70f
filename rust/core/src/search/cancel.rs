//! Stopping an agent's long `act` from outside (Ctrl-C in Python). The caller runs the agent
//! under [`watching`] a flag; the agents' search loops call [`check`] between units of work
//! (an ISMCTS iteration, a Greedy sample) and stop with [`cancelled`] once the flag
//! is set. A thread-local keeps the `Agent::act` signature unchanged; without a flag,
//! [`check`] costs one thread-local read.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::error::Result;
use crate::playout::cancelled;

thread_local! {
    static FLAG: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Run `f` on this thread with `flag` as its cancel flag (the previous one is restored).
pub fn watching<R>(flag: Arc<AtomicBool>, f: impl FnOnce() -> R) -> R {
    let before = FLAG.with(|c| c.replace(Some(flag)));
    let out = f();
    FLAG.with(|c| *c.borrow_mut() = before);
    out
}

/// `Err(cancelled())` once the flag this thread runs under is set.
pub fn check() -> Result<()> {
    let set = FLAG.with(|c| {
        c.borrow()
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    });
    if set {
        Err(cancelled())
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_flag_stops_only_work_watching_it() {
        assert!(check().is_ok());
        let flag = Arc::new(AtomicBool::new(false));
        watching(flag.clone(), || {
            assert!(check().is_ok());
            flag.store(true, Ordering::Relaxed);
            assert!(check().is_err());
        });
        assert!(check().is_ok(), "the flag is dropped after `watching`");
    }
}
