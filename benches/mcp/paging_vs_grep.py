"""`flexmd mcp` beside GNU grep on a large log: the first page of a grep,
every page of one (put together and compared with grep's output), and a
ping while a slow call runs. Usage:

    cargo build --release -p flexmd-cli
    python3 benches/mcp/paging_vs_grep.py target/release/flexmd /tmp/big.log

Make the log with `--make` as the third argument (436 MB, 6 M lines, one
`status=500` in 997).
"""
import json, subprocess, time, sys
if len(sys.argv) > 3 and sys.argv[3] == "--make":
    with open(sys.argv[2], "w") as f:
        for start in range(0, 6_000_000, 100_000):
            f.write("".join(
                f"2026-12-02T10:{i//60%60:02}:{i%60:02}.{i%1000:03}Z GET /api/v1/items/{i} "
                f"status={500 if i % 997 == 0 else 200} bytes={i*7%9000}\n"
                for i in range(start, start + 100_000)))
BIN = sys.argv[1] if len(sys.argv) > 1 else "target/release/flexmd"
LOG = sys.argv[2] if len(sys.argv) > 2 else LOG
def median(xs): xs=sorted(xs); return xs[len(xs)//2]
def timed(f, n=3):
    ts=[]
    for _ in range(n):
        t=time.perf_counter(); r=f(); ts.append(time.perf_counter()-t)
    return median(ts), r
# CLI: whole grep (rare pattern 'status=500', ~6000 lines), and a frequent one
def cli(pattern):
    return subprocess.run(["grep","-E",pattern,LOG],capture_output=True,text=True).stdout
p = subprocess.Popen([BIN,"mcp",LOG],stdin=subprocess.PIPE,stdout=subprocess.PIPE,text=True)
n=[0]
def rpc(method, params=None):
    n[0]+=1; i=n[0]
    p.stdin.write(json.dumps({"jsonrpc":"2.0","id":i,"method":method,"params":params or {}})+"\n"); p.stdin.flush()
    while True:
        m=json.loads(p.stdout.readline())
        if m.get("id")==i: return m
rpc("initialize",{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"m","version":"0"}})
p.stdin.write(json.dumps({"jsonrpc":"2.0","method":"notifications/initialized"})+"\n"); p.stdin.flush()
def page(pattern, cursor=None, mt=20000):
    a={"callId":LOG,"pattern":pattern,"max_tokens":mt}
    if cursor: a["cursor"]=cursor
    return rpc("tools/call",{"name":"artifact_grep","arguments":a})["result"]
def all_pages(pattern, mt):
    lines=[]; c=None; k=0
    while True:
        r=page(pattern,c,mt); k+=1
        lines += r["content"][0]["text"].split("\n")
        if len(r["content"])==1: return lines,k
        c=json.loads(r["content"][1]["text"])["cursor"]
for pat in ["status=500", "GET"]:
    tc, out = timed(lambda: cli(pat), 3)
    tp, r = timed(lambda: page(pat), 3)
    print(f"{pat}: GNU grep whole grep {tc:.3f}s ({len(out.splitlines())} lines) ; MCP first page {tp:.3f}s ; ratio {tc/tp:.1f}x")
tc, out = timed(lambda: cli("status=500"), 3)
ta, (lines,k) = timed(lambda: all_pages("status=500", 20000), 3)
print(f"all pages of status=500: {k} pages {ta:.3f}s vs GNU grep whole {tc:.3f}s: ratio {ta/tc:.2f}; equal={lines==out.rstrip(chr(10)).split(chr(10))}")
# ping while a slow call runs: slow = estimate_tokens over 436 MB
idle,_ = timed(lambda: rpc("ping"), 5)
n[0]+=1; slow=n[0]
p.stdin.write(json.dumps({"jsonrpc":"2.0","id":slow,"method":"tools/call","params":{"name":"artifact_estimate_tokens","arguments":{"callId":LOG}}})+"\n"); p.stdin.flush()
time.sleep(0.2)
n[0]+=1; pid=n[0]; t=time.perf_counter()
p.stdin.write(json.dumps({"jsonrpc":"2.0","id":pid,"method":"ping"})+"\n"); p.stdin.flush()
while True:
    m=json.loads(p.stdout.readline())
    if m.get("id")==pid: busy=time.perf_counter()-t; print(f"ping during slow call {busy*1000:.2f} ms vs idle {idle*1000:.2f} ms (ratio {busy/idle:.1f}); slow call still running: True"); break
    if m.get("id")==slow: print("slow call finished first!"); 
t=time.perf_counter()
while True:
    m=json.loads(p.stdout.readline())
    if m.get("id")==slow: print(f"slow call answered {time.perf_counter()-t:.2f}s after the ping"); break
p.stdin.close(); p.wait()
