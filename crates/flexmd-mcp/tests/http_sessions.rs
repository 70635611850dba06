//! Sessions' state is freed when they end: in a test binary of its own,
//! since the count of live sessions is the process's.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod http_common;

use std::time::{Duration, Instant};

use http_common::{AUTH, INITIALIZE, Reply, end_session, request, start};

/// Ended (DELETE) and expired sessions free their state: no session's
/// files or cursors outlive it, however many come and go.
#[tokio::test]
async fn ended_and_expired_sessions_free_their_state() {
    let (addr, stop, task) = start(|o| o.session_idle = Duration::from_millis(300)).await;
    assert_eq!(flexmd_mcp::live_sessions(), 0);
    let header = |reply: &Reply| reply.header("mcp-session-id").unwrap().to_owned();
    for round in 0..20 {
        let opened = request(addr, "POST", &[AUTH], INITIALIZE).await;
        assert_eq!(opened.status, 200);
        if round % 2 == 0 {
            let session = header(&opened);
            let ended = end_session(addr, &session).await;
            assert_eq!(ended.status, 204);
        }
    }
    assert!(
        flexmd_mcp::live_sessions() > 0,
        "ten sessions were left open"
    );
    // The other ten expire on their own.
    let deadline = Instant::now() + Duration::from_secs(10);
    while flexmd_mcp::live_sessions() > 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(flexmd_mcp::live_sessions(), 0);
    stop.send(()).unwrap();
    task.await.unwrap().unwrap();
}
