// Preloaded (node --import) into the conformance suite's processes: every server they start
// listens on 127.0.0.1 only, not on every interface as the suite's scenario servers and the
// reference server ask. listen(0) gets a free port picked ahead, so that address() answers at once
// as it does for a wildcard bind (a bind to a named host resolves it first, asynchronously).
// Test code: it only has to hold for the suite's own processes.
import net from "node:net";

// not passed on by the suite's runner to the clients it starts (they bind no port, or their own):
// a second pool picked in parallel could hand out a port this one holds for later
if (/conformance/.test(process.argv[1] ?? "") && process.env.NODE_OPTIONS)
  process.env.NODE_OPTIONS = process.env.NODE_OPTIONS.replace(/--import[= ]\S*loopback\.mjs/, "").trim();
const pool = [];
// every port this process has pooled: a random pick may repeat one that is in the pool or handed
// out and not bound yet (two scenario servers once got 22475: EADDRINUSE), so none is pooled twice
const pooled = new Set();
// below Linux's ephemeral range (32768 and up): a process binding port 0 (a gateway, a client)
// never gets one of these while it waits in the pool
async function refill(n) {
  while (n > 0) {
    const port = 20000 + Math.floor(Math.random() * 12000);
    if (pooled.has(port)) continue;
    pooled.add(port);
    const probe = net.createServer();
    const free = await new Promise((resolve) => {
      probe.once("error", () => resolve(false));
      probe.listen(port, "127.0.0.1", () => resolve(true));
    });
    if (!free) continue;
    await new Promise((resolve) => probe.close(resolve));
    pool.push(port);
    n--;
  }
}
await refill(64);
const listen = net.Server.prototype.listen;
const address = net.Server.prototype.address;
net.Server.prototype.address = function () {
  return address.call(this) ?? (this._loopbackPort ? { address: "127.0.0.1", family: "IPv4", port: this._loopbackPort } : null);
};
net.Server.prototype.listen = function (...args) {
  let port = args[0];
  if (port && typeof port === "object" && !port.path) {
    args = [port.port ?? 0, ...args.slice(1)];
    port = args[0];
  }
  if (typeof port === "function" || port === undefined) args.unshift((port = 0));
  if (typeof port === "number" || (typeof port === "string" && /^\d+$/.test(port))) {
    let p = Number(port);
    if (p === 0) {
      p = pool.shift();
      if (pool.length < 16) void refill(32);
    }
    args[0] = p;
    this._loopbackPort = p;
    if (typeof args[1] === "string") args[1] = "127.0.0.1";
    else args.splice(1, 0, "127.0.0.1");
  }
  return listen.apply(this, args);
};
