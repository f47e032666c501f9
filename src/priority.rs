//! The core's own threads (the ranking pool, the transformer's helper, the background worker that
//! embeds tools) run at a lower scheduling priority than the host's: on a machine whose cores are
//! all busy, the host's JavaScript thread, which serves DSH's web server, its other Agents and
//! their streams, gets a core first, and a search waits instead. Where lowering it is not
//! supported (a platform other than Linux, or a system that refuses), threads keep the normal
//! priority; nothing else changes.

/// How much lower than the thread that starts it: Linux's nice values (0 normal, 19 lowest), added
/// to the host's own, so a host started with `nice` still gets the core first.
#[cfg(target_os = "linux")]
const NICER: i32 = 10;

/// The lowest priority Linux gives.
#[cfg(target_os = "linux")]
const LOWEST: i32 = 19;

/// Lowers the calling thread's priority (see the module's documentation).
pub(crate) fn lower_this_thread() {
    #[cfg(target_os = "linux")]
    {
        extern "C" {
            fn getpriority(which: i32, who: u32) -> i32;
            fn setpriority(which: i32, who: u32, priority: i32) -> i32;
        }
        /// `PRIO_PROCESS`: on Linux, with `who` 0, the calling thread alone (a nice value is per
        /// thread there). A new thread starts with the nice value of the thread that made it.
        const PRIO_PROCESS: i32 = 0;
        // SAFETY: both read their integers and touch only the calling thread's nice value; a
        // refusal (a sandbox) is an error code, which leaves the priority as it was.
        unsafe {
            let now = getpriority(PRIO_PROCESS, 0);
            let _ = setpriority(PRIO_PROCESS, 0, (now + NICER).min(LOWEST));
        }
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    fn nice_of_this_thread() -> i32 {
        let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap();
        // The fields after the command's closing parenthesis; nice is the 19th field of the line.
        let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
        fields[16].parse().unwrap()
    }

    #[test]
    fn a_lowered_thread_is_nicer_and_the_others_are_not() {
        let before = nice_of_this_thread();
        let lowered = std::thread::spawn(|| {
            lower_this_thread();
            nice_of_this_thread()
        })
        .join()
        .unwrap();
        assert_eq!(lowered, (before + NICER).min(LOWEST));
        assert_eq!(nice_of_this_thread(), before, "only the calling thread");
    }
}
