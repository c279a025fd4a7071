/**
 * Behind a load balancer on another host (TRUST_PROXY): each buyer is their own address for the
 * per-address limits; without the setting, a stranger's X-Forwarded-For is not believed. A proxy on
 * this machine that forwards nothing makes every buyer loopback, and loopback is not exempt.
 */
import { request } from "node:http";
import { networkInterfaces } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_UNPAID_SALES_PER_ADDRESS } from "#rules/limits";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";
import { makeOption, newEmail, sessionFor, type Option } from "./_helpers";

/** An address of this machine that is not loopback: the load balancer's, as the API sees it. */
const proxyAddress = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === "IPv4" && !i.internal)?.address;

/** POST /sales/create/ sent from `from` (the proxy), forwarding for `buyer`. */
function createVia(api: TestApi, from: string, buyer: string, token: string): Promise<number> {
  const body = JSON.stringify({ session_token: token });
  return new Promise((resolve, reject) => {
    const req = request(
      `${api.url}/sales/create/`,
      {
        method: "POST",
        localAddress: from,
        headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body), "X-Forwarded-For": buyer },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const BUYERS = MAX_UNPAID_SALES_PER_ADDRESS + 3;

async function eightBuyers(api: TestApi, option: Option): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < BUYERS; i++) {
    const token = await sessionFor(api, [{ option, quantity: 1 }], newEmail(`tras-proxy${i}`));
    statuses.push(await createVia(api, proxyAddress!, `203.0.113.${i + 1}`, token));
  }
  return statuses;
}

describe.runIf(proxyAddress)("TRUST_PROXY", () => {
  let trusting: TestApi;
  let plain: TestApi;
  beforeAll(async () => {
    trusting = await startTestApi({ env: { TRUST_PROXY: proxyAddress! } });
    plain = await startTestApi();
  });
  afterAll(async () => {
    await trusting?.close();
    await plain?.close();
  });

  it("set to the proxy's address, buyers behind it each get their own limits", async () => {
    const option = await makeOption(trusting, { available: 100 });
    expect(await eightBuyers(trusting, option)).toEqual(Array(BUYERS).fill(201));
  });

  it("not set, forwarded headers from a host that is not loopback are ignored: they share the proxy's limits", async () => {
    const option = await makeOption(plain, { available: 100 });
    expect(await eightBuyers(plain, option)).toEqual([
      ...Array(MAX_UNPAID_SALES_PER_ADDRESS).fill(201),
      ...Array(BUYERS - MAX_UNPAID_SALES_PER_ADDRESS).fill(429),
    ]);
  });
});

describe("a proxy on this machine that forwards no X-Forwarded-For (nginx's default proxy_pass)", () => {
  let api: TestApi;
  beforeAll(async () => {
    // As a deployment runs: nobody named in RATE_LIMIT_EXEMPT.
    api = await startTestApi({ env: { RATE_LIMIT_EXEMPT: "" } });
  });
  afterAll(() => api?.close());

  it("its buyers all look like loopback and share its limits: nothing is exempt by its address alone", async () => {
    const option = await makeOption(api, { available: 100 });
    const statuses: number[] = [];
    for (let i = 0; i < BUYERS; i++) {
      const token = await sessionFor(api, [{ option, quantity: 1 }], newEmail(`sin-xff${i}`));
      statuses.push((await call(api, "/sales/create/", { body: { session_token: token } })).status);
    }
    expect(statuses).toEqual([...Array(MAX_UNPAID_SALES_PER_ADDRESS).fill(201), ...Array(BUYERS - MAX_UNPAID_SALES_PER_ADDRESS).fill(429)]);
  });
});
