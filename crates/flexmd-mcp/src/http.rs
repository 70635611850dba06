//! MCP over Streamable HTTP (`flexmd mcp --http ADDR`), for agents that
//! reach their tools over the network.
//!
//! The protocol itself is rmcp's Streamable HTTP server: `Mcp-Session-Id`
//! sessions, the `MCP-Protocol-Version` header, `Host` and `Origin`
//! validation (against DNS rebinding, a foreign `Origin` gets 403), the
//! body limit (413) and idle expiry. This module puts in front of it what a
//! server on a network needs besides:
//!
//! - **authentication**: a bearer token, compared in constant time (401
//!   without it); a non-loopback address cannot be bound without one;
//! - **sessions apart**: each session is a [`Server`] of its own, so its
//!   open artifacts, callIds and cursors are its own (a cursor carries its
//!   session's tag and is refused in another); the files given at start
//!   are shared, read-only;
//! - **limits**, each answered with a clear error, never a dropped
//!   connection: open sessions (503), body size (413), a body that does not
//!   arrive in time (408), headers sent too slowly (the connection is
//!   closed after [`HttpOptions::header_timeout`]), calls at once in a
//!   session (a JSON-RPC error), files open in a session (the stdio limit);
//! - **graceful shutdown**: on SIGTERM or Ctrl-C the listener closes,
//!   calls in flight get [`HttpOptions::shutdown_deadline`] to finish, then
//!   every session ends and the process exits 0.
//!
//! The tools, budgets, cursors and checks are the stdio server's: one
//! handler, two transports.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited, combinators::BoxBody};
use hyper::body::Incoming;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use rmcp::transport::streamable_http_server::session::SessionId;
use rmcp::transport::streamable_http_server::session::SessionManager;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::json;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::error::ServeError;
use crate::server::Server;
use crate::transport::{self, Verdict};

/// The default for [`HttpOptions::max_sessions`].
pub const DEFAULT_MAX_SESSIONS: usize = 64;
/// The default for [`HttpOptions::session_idle`]: ten minutes.
pub const DEFAULT_SESSION_IDLE: Duration = Duration::from_secs(600);
/// The default for [`HttpOptions::max_calls_per_session`].
pub const DEFAULT_MAX_CALLS_PER_SESSION: usize = 8;
/// The default for [`HttpOptions::header_timeout`] and
/// [`HttpOptions::body_timeout`].
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
/// The default for [`HttpOptions::shutdown_deadline`].
pub const DEFAULT_SHUTDOWN_DEADLINE: Duration = Duration::from_secs(10);

/// The header a session's id travels in.
const SESSION_HEADER: &str = "mcp-session-id";

/// How [`Server::run_http`] serves.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// Where to listen. A loopback address serves this machine only;
    /// another needs [`HttpOptions::token`].
    pub addr: SocketAddr,
    /// The bearer token every request must carry (`Authorization: Bearer
    /// TOKEN`); `None` serves without authentication, which only a
    /// loopback address may.
    pub token: Option<String>,
    /// Browser origins allowed to call (`https://app.example.com:443`,
    /// `http://localhost:*`), besides the server's own. A request with any
    /// other `Origin` header is refused with 403; one without is a
    /// non-browser client and passes.
    pub allowed_origins: Vec<String>,
    /// Host names clients reach the server by (the `Host` header), besides
    /// `localhost`, `127.0.0.1`, `::1` and the bound address.
    pub allowed_hosts: Vec<String>,
    /// The largest request body, in bytes (413 past it).
    pub max_body_bytes: usize,
    /// How many sessions may be open at once (503 for a new one past it).
    pub max_sessions: usize,
    /// A session unused this long is closed and its files released; its
    /// id then gets 404 and the client initializes again.
    pub session_idle: Duration,
    /// How many tool calls one session may run at once; one more is a
    /// JSON-RPC error saying so.
    pub max_calls_per_session: usize,
    /// How long a client may take to send a request's headers before the
    /// connection is closed.
    pub header_timeout: Duration,
    /// How long a client may take to send a request's body (408 past it).
    pub body_timeout: Duration,
    /// How long calls in flight may take to finish after SIGTERM.
    pub shutdown_deadline: Duration,
}

impl HttpOptions {
    /// Options for `addr` with every limit at its default and no token.
    pub fn new(addr: SocketAddr) -> Self {
        Self {
            addr,
            token: None,
            allowed_origins: Vec::new(),
            allowed_hosts: Vec::new(),
            max_body_bytes: crate::DEFAULT_MAX_MESSAGE_BYTES,
            max_sessions: DEFAULT_MAX_SESSIONS,
            session_idle: DEFAULT_SESSION_IDLE,
            max_calls_per_session: DEFAULT_MAX_CALLS_PER_SESSION,
            header_timeout: DEFAULT_REQUEST_TIMEOUT,
            body_timeout: DEFAULT_REQUEST_TIMEOUT,
            shutdown_deadline: DEFAULT_SHUTDOWN_DEADLINE,
        }
    }

    /// Refuses what a network must not get: a non-loopback address without
    /// a token, an empty token.
    fn check(&self) -> Result<(), ServeError> {
        if self.token.as_deref().is_some_and(|t| t.trim().is_empty()) {
            return Err(ServeError::EmptyToken);
        }
        if self.token.is_none() && !self.addr.ip().is_loopback() {
            return Err(ServeError::Unauthenticated { addr: self.addr });
        }
        Ok(())
    }

    /// The `Origin`s a browser page of the server's own may call from.
    fn origins(&self, port: u16) -> Vec<String> {
        let mut origins: Vec<String> = ["127.0.0.1", "localhost", "[::1]"]
            .iter()
            .map(|host| format!("http://{host}:{port}"))
            .collect();
        if !self.addr.ip().is_loopback() && !self.addr.ip().is_unspecified() {
            origins.push(format!("http://{}", SocketAddr::new(self.addr.ip(), port)));
        }
        origins.extend(self.allowed_origins.iter().cloned());
        origins
    }

    /// The `Host`s the server answers to.
    fn hosts(&self, port: u16) -> Vec<String> {
        let mut hosts: Vec<String> = ["localhost", "127.0.0.1", "::1"]
            .iter()
            .map(|h| (*h).to_owned())
            .collect();
        if !self.addr.ip().is_unspecified() {
            hosts.push(self.addr.ip().to_string());
            hosts.push(SocketAddr::new(self.addr.ip(), port).to_string());
        }
        hosts.extend(self.allowed_hosts.iter().cloned());
        hosts
    }
}

/// Whether `given` is `expected`, in time that depends on `expected`'s
/// length only: a wrong token does not tell how much of it was right.
fn same_token(given: &[u8], expected: &[u8]) -> bool {
    let mut differs = given.len() ^ expected.len();
    for (i, byte) in expected.iter().enumerate() {
        differs |= usize::from(given.get(i).copied().unwrap_or(0) ^ byte);
    }
    differs == 0
}

type Body = BoxBody<Bytes, Infallible>;

/// A refusal in the shape MCP clients read: a JSON-RPC error as the body.
fn refuse(status: StatusCode, message: &str) -> Response<Body> {
    refuse_with(
        status,
        &transport::Refusal {
            id: serde_json::Value::Null,
            code: SERVER_ERROR,
            message: message.to_owned(),
        },
    )
}

/// The JSON-RPC error code of the HTTP layer's own refusals (authentication,
/// limits), in the range JSON-RPC leaves to servers.
const SERVER_ERROR: i64 = -32000;

/// `refusal` as an HTTP response with `status`.
fn refuse_with(status: StatusCode, refusal: &transport::Refusal) -> Response<Body> {
    let body = json!({
        "jsonrpc": "2.0",
        "id": refusal.id,
        "error": {"code": refusal.code, "message": refusal.message},
    })
    .to_string();
    let mut response = Response::new(Full::new(Bytes::from(body)).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/json"),
    );
    if status == StatusCode::UNAUTHORIZED {
        response.headers_mut().insert(
            hyper::header::WWW_AUTHENTICATE,
            hyper::header::HeaderValue::from_static("Bearer"),
        );
    }
    response
}

/// What every request passes through before rmcp sees it.
struct Gate {
    options: HttpOptions,
    sessions: Arc<LocalSessionManager>,
    /// Held while a new session is made, so that two at once cannot both
    /// take the last free place.
    opening: tokio::sync::Mutex<()>,
    service: StreamableHttpService<Server, LocalSessionManager>,
}

impl Gate {
    /// The 401 for a request without the server's token, if it has one.
    fn unauthorised(&self, request: &Request<Incoming>) -> Option<Response<Body>> {
        let token = self.options.token.as_ref()?;
        let given = request
            .headers()
            .get(hyper::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .unwrap_or_default();
        (!same_token(given.trim().as_bytes(), token.as_bytes())).then(|| {
            refuse(
                StatusCode::UNAUTHORIZED,
                "this server needs `Authorization: Bearer TOKEN` with the token it was \
                 started with (flexmd mcp --token-file)",
            )
        })
    }

    /// The body, read whole within its limit (413) and its time (408), so
    /// that a slow or endless body is answered rather than waited for.
    async fn read_body(&self, body: Incoming) -> Result<Bytes, Response<Body>> {
        let limit = self.options.max_body_bytes;
        let read = tokio::time::timeout(
            self.options.body_timeout,
            Limited::new(body, limit).collect(),
        )
        .await;
        match read {
            Err(_) => Err(refuse(
                StatusCode::REQUEST_TIMEOUT,
                &format!(
                    "the request body did not arrive within {} s",
                    self.options.body_timeout.as_secs()
                ),
            )),
            Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => Err(refuse(
                StatusCode::PAYLOAD_TOO_LARGE,
                &format!(
                    "the request body is over the server's limit of {limit} bytes \
                     (flexmd mcp --max-message-bytes); send less in one call"
                ),
            )),
            Ok(Err(e)) => Err(refuse(
                StatusCode::BAD_REQUEST,
                &format!("the request body could not be read: {e}"),
            )),
            Ok(Ok(collected)) => Ok(collected.to_bytes()),
        }
    }

    async fn handle(&self, request: Request<Incoming>) -> Response<Body> {
        if let Some(refused) = self.unauthorised(&request) {
            return refused;
        }
        let (parts, body) = request.into_parts();
        let bytes = match self.read_body(body).await {
            Ok(bytes) => bytes,
            Err(refused) => return refused,
        };
        if parts.method != hyper::Method::POST {
            // GET (the server's stream) and DELETE (end the session) carry
            // no message.
            let delete = parts.method == hyper::Method::DELETE;
            let mut response = self
                .service
                .handle(Request::from_parts(parts, Full::new(bytes)))
                .await;
            // rmcp accepts a DELETE with 202; the Python and TypeScript
            // SDKs take 200 or 204 as "session ended" and warn otherwise.
            if delete && response.status() == StatusCode::ACCEPTED {
                *response.status_mut() = StatusCode::NO_CONTENT;
                *response.body_mut() = Full::new(Bytes::new()).boxed();
            }
            return response;
        }
        // The checks every stdio line gets (UTF-8, JSON, depth, repeated
        // keys, the shape of known methods' params), answered the same way:
        // a JSON-RPC error, here with status 400.
        let limit = self.options.max_body_bytes;
        let (bytes, request_id) = match transport::check_line(Vec::from(bytes), None, limit) {
            Verdict::Pass(checked, _, request_id) => (Bytes::from(checked), request_id),
            Verdict::Skip => {
                return refuse_with(
                    StatusCode::BAD_REQUEST,
                    &transport::Refusal {
                        id: serde_json::Value::Null,
                        code: transport::PARSE_ERROR,
                        message: "the request body is empty; send one JSON-RPC message".to_owned(),
                    },
                );
            }
            Verdict::Refuse(refusal) => {
                eprintln!("flexmd mcp: refused a request: {}", refusal.message);
                return refuse_with(StatusCode::BAD_REQUEST, &refusal);
            }
        };
        let session = parts
            .headers
            .get(SESSION_HEADER)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let request = Request::from_parts(parts, Full::new(bytes));
        if let Some(session) = session {
            let response = self.service.handle(request).await;
            // A client that hangs up before its answer has, in effect,
            // cancelled the call: the session is told so, and the call
            // stops at its next check.
            return match request_id {
                Some(id) => response.map(|body| {
                    CancelOnDrop {
                        body,
                        finished: false,
                        cancel: Some((Arc::clone(&self.sessions), session.into(), id)),
                    }
                    .boxed()
                }),
                None => response,
            };
        }
        let _opening = self.opening.lock().await;
        let open = self.sessions.sessions.read().await.len();
        if open >= self.options.max_sessions {
            return refuse(
                StatusCode::SERVICE_UNAVAILABLE,
                &format!(
                    "the server has {open} sessions open, its limit (flexmd mcp \
                     --max-sessions); close one (DELETE with its Mcp-Session-Id) or wait \
                     for an idle one to expire"
                ),
            );
        }
        self.service.handle(request).await
    }
}

/// A response body that, dropped before its end (the client hung up),
/// sends `notifications/cancelled` for its request into its session.
struct CancelOnDrop {
    body: Body,
    finished: bool,
    cancel: Option<(Arc<LocalSessionManager>, SessionId, serde_json::Value)>,
}

impl hyper::body::Body for CancelOnDrop {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<hyper::body::Frame<Bytes>, Infallible>>> {
        let polled = std::pin::Pin::new(&mut self.body).poll_frame(cx);
        if let std::task::Poll::Ready(None) = polled {
            self.finished = true;
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.body.size_hint()
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if self.finished {
            return;
        }
        let Some((sessions, session, id)) = self.cancel.take() else {
            return;
        };
        let cancelled = serde_json::from_value(json!({
            "jsonrpc": "2.0",
            "method": "notifications/cancelled",
            "params": {"requestId": id, "reason": "the client closed the connection"},
        }));
        if let (Ok(message), Ok(runtime)) = (cancelled, tokio::runtime::Handle::try_current()) {
            runtime.spawn(async move {
                // A session that has ended has nothing left to cancel.
                let _ = sessions.accept_message(&session, message).await;
            });
        }
    }
}

impl Server {
    /// Serves MCP over Streamable HTTP at `options.addr` until SIGTERM or
    /// Ctrl-C, then shuts down gracefully: what `flexmd mcp --http` runs.
    pub fn run_http(self, options: HttpOptions) -> Result<(), ServeError> {
        options.check()?;
        // Calls run on the blocking pool: a few threads a core keep the
        // cores busy; hundreds (tokio's default ceiling is 512) would only
        // add stacks and allocator arenas under load.
        let cores = std::thread::available_parallelism().map_or(2, usize::from);
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .max_blocking_threads(4 * cores)
            .enable_all()
            .build()
            .map_err(|e| ServeError::Transport(e.to_string()))?;
        runtime.block_on(async {
            let listener =
                TcpListener::bind(options.addr)
                    .await
                    .map_err(|source| ServeError::Bind {
                        addr: options.addr,
                        source,
                    })?;
            self.serve_http(listener, options, shutdown_signal()).await
        })
    }

    /// Serves MCP over Streamable HTTP on `listener` until `shutdown`
    /// completes, then shuts down gracefully (calls in flight get
    /// [`HttpOptions::shutdown_deadline`]). `options.addr` is only checked
    /// (a non-loopback address needs a token); the listener's own address
    /// is served.
    pub async fn serve_http(
        self,
        listener: TcpListener,
        options: HttpOptions,
        shutdown: impl std::future::Future<Output = ()>,
    ) -> Result<(), ServeError> {
        options.check()?;
        let local = listener
            .local_addr()
            .map_err(|e| ServeError::Transport(e.to_string()))?;
        let cancel = CancellationToken::new();
        let mut sessions = LocalSessionManager::default();
        sessions.session_config.keep_alive = Some(options.session_idle);
        let sessions = Arc::new(sessions);
        let config = StreamableHttpServerConfig::default()
            .with_allowed_hosts(options.hosts(local.port()))
            .with_allowed_origins(options.origins(local.port()))
            .enforce_origin_validation()
            .with_max_request_body_bytes(options.max_body_bytes)
            .with_cancellation_token(cancel.child_token());
        let template = self.clone();
        let in_flight = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&in_flight);
        let max_calls = options.max_calls_per_session;
        let service = StreamableHttpService::new(
            move || Ok(template.session(max_calls, Arc::clone(&counter))),
            Arc::clone(&sessions),
            config,
        );
        let gate = Arc::new(Gate {
            options: options.clone(),
            sessions,
            opening: tokio::sync::Mutex::new(()),
            service,
        });
        eprintln!("flexmd mcp: serving MCP over Streamable HTTP at http://{local}/");
        let graceful = hyper_util::server::graceful::GracefulShutdown::new();
        let mut shutdown = std::pin::pin!(shutdown);
        loop {
            let (stream, _) = tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok(accepted) => accepted,
                    // Out of descriptors and the like: the next accept may
                    // succeed; the server goes on.
                    Err(e) => {
                        eprintln!("flexmd mcp: cannot accept a connection: {e}");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                },
                () = &mut shutdown => break,
            };
            let gate = Arc::clone(&gate);
            let service = hyper::service::service_fn(move |request| {
                let gate = Arc::clone(&gate);
                async move { Ok::<_, Infallible>(gate.handle(request).await) }
            });
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(options.header_timeout)
                .serve_connection(TokioIo::new(stream), service);
            let watched = graceful.watch(connection);
            tokio::spawn(async move {
                // A client that hangs up or stalls ends only its connection.
                let _ = watched.await;
            });
        }
        drop(listener);
        eprintln!("flexmd mcp: shutting down");
        // Calls in flight finish, up to the deadline; then every session
        // ends (its streams close) and the connections with them.
        let deadline = tokio::time::Instant::now() + options.shutdown_deadline;
        while in_flight.load(Ordering::Acquire) > 0 && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        cancel.cancel();
        let _ = tokio::time::timeout(Duration::from_secs(2), graceful.shutdown()).await;
        Ok(())
    }
}

/// Completes on SIGTERM or Ctrl-C.
async fn shutdown_signal() {
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(term) => term,
                Err(_) => {
                    let _ = tokio::signal::ctrl_c().await;
                    return;
                }
            };
        tokio::select! {
            _ = term.recv() => {}
            _ = tokio::signal::ctrl_c() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn tokens_compare_whole() {
        assert!(same_token(b"s3cret", b"s3cret"));
        assert!(!same_token(b"s3cre", b"s3cret"));
        assert!(!same_token(b"s3cretX", b"s3cret"));
        assert!(!same_token(b"", b"s3cret"));
        assert!(!same_token(b"S3cret", b"s3cret"));
    }

    #[test]
    fn a_network_address_needs_a_token_and_a_token_must_say_something() {
        let mut options = HttpOptions::new("0.0.0.0:8080".parse().unwrap());
        assert!(matches!(
            options.check(),
            Err(ServeError::Unauthenticated { .. })
        ));
        options.token = Some("  ".to_owned());
        assert!(matches!(options.check(), Err(ServeError::EmptyToken)));
        options.token = Some("t0ken".to_owned());
        assert!(options.check().is_ok());
        let loopback = HttpOptions::new("127.0.0.1:0".parse().unwrap());
        assert!(loopback.check().is_ok());
    }

    #[test]
    fn the_server_s_own_origins_are_allowed_and_no_other_by_default() {
        let options = HttpOptions::new("127.0.0.1:0".parse().unwrap());
        assert_eq!(
            options.origins(8123),
            [
                "http://127.0.0.1:8123",
                "http://localhost:8123",
                "http://[::1]:8123"
            ]
        );
    }
}
