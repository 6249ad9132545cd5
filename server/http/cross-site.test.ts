import { describe, expect, it } from "vitest";
import { crossSiteRefusal, type RequestFacts } from "./cross-site";

const own = ["http://localhost:3000"];
const browser: RequestFacts = {
  method: "POST",
  authorization: null,
  origin: "http://localhost:3000",
  secFetchSite: "same-origin",
  contentType: "application/json",
  hasSession: true,
};

describe("crossSiteRefusal", () => {
  it("lets the app's own pages through", () => {
    expect(crossSiteRefusal(browser, own)).toBeNull();
    expect(crossSiteRefusal({ ...browser, contentType: "application/json; charset=utf-8" }, own)).toBeNull();
    expect(crossSiteRefusal({ ...browser, secFetchSite: null }, own)).toBeNull();
  });

  it("refuses other origins and sites, with what was sent", () => {
    expect(crossSiteRefusal({ ...browser, secFetchSite: "same-site", origin: "http://evil.localhost:3000" }, own)).toMatch(/same-site request.*"same-site"/);
    expect(crossSiteRefusal({ ...browser, secFetchSite: "cross-site" }, own)).toMatch(/cross-site/);
    expect(crossSiteRefusal({ ...browser, secFetchSite: null, origin: "http://evil.example" }, own)).toMatch(/origin "http:\/\/evil\.example".*localhost:3000/);
    expect(crossSiteRefusal({ ...browser, secFetchSite: null, origin: "null" }, own)).toMatch(/origin "null"/);
  });

  it("refuses a signed-in post that is not JSON, even from the app's origin", () => {
    expect(crossSiteRefusal({ ...browser, contentType: "multipart/form-data; boundary=x" }, own)).toMatch(/multipart\/form-data.*application\/json/);
    expect(crossSiteRefusal({ ...browser, contentType: "text/plain" }, own)).toMatch(/text\/plain/);
    expect(crossSiteRefusal({ ...browser, contentType: null }, own)).toMatch(/\(none\)/);
  });

  it("leaves API-key requests and reads alone", () => {
    expect(crossSiteRefusal({ ...browser, authorization: "Bearer tg_x", origin: "http://harness.example", secFetchSite: "cross-site" }, own)).toBeNull();
    expect(crossSiteRefusal({ ...browser, method: "GET", origin: "http://evil.example" }, own)).toBeNull();
    // a client that is not a browser (no Origin, no Sec-Fetch-Site) signing in with JSON
    expect(crossSiteRefusal({ ...browser, origin: null, secFetchSite: null, hasSession: false, contentType: "text/plain" }, own)).toBeNull();
  });

  it("lets the app's own urlencoded form posts through only when they say they come from its pages", () => {
    const form = { ...browser, contentType: "application/x-www-form-urlencoded", ownForm: true };
    expect(crossSiteRefusal(form, own)).toBeNull();
    expect(crossSiteRefusal({ ...form, secFetchSite: null }, own)).toBeNull();
    expect(crossSiteRefusal({ ...form, origin: null }, own)).toBeNull();
    expect(crossSiteRefusal({ ...form, origin: null, secFetchSite: null }, own)).toMatch(/neither where it comes from/);
    expect(crossSiteRefusal({ ...form, origin: "http://evil.example", secFetchSite: "cross-site" }, own)).toMatch(/cross-site/);
    expect(crossSiteRefusal({ ...form, origin: "http://evil.example", secFetchSite: null }, own)).toMatch(/evil\.example/);
  });
});
