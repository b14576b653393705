import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { areaPrefixes, resolveBaseUrl } from "../../lib/api/base_url.ts";

const env = (vars: Record<string, string>) => (name: string) => vars[name];

describe("resolveBaseUrl", () => {
  it("prefers the option, then SAM_BASE_URL, then SAM_REGION with SAM_HOST", () => {
    const vars = env({
      SAM_BASE_URL: "https://from-env.test/",
      SAM_REGION: "eu",
      SAM_HOST: "sam.test",
    });
    assert.equal(
      resolveBaseUrl({ baseUrl: "http://127.0.0.1:9/", env: vars }),
      "http://127.0.0.1:9",
    );
    assert.equal(resolveBaseUrl({ env: vars }), "https://from-env.test");
    assert.equal(
      resolveBaseUrl({ env: env({ SAM_REGION: "eu", SAM_HOST: "sam.test" }) }),
      "https://eu.sam.test",
    );
    assert.equal(
      resolveBaseUrl({ region: "us", host: "https://sam.test/", env: env({}) }),
      "https://us.sam.test",
    );
  });

  it("says what to set when the host is missing", () => {
    assert.throws(() => resolveBaseUrl({ env: env({ SAM_REGION: "eu" }) }), /SAM_HOST/);
    assert.throws(() => resolveBaseUrl({ env: env({}) }), /SAM_BASE_URL/);
  });

  it("refuses non-http URLs, credentials in the URL and odd regions", () => {
    assert.throws(() => resolveBaseUrl({ baseUrl: "ftp://x.test" }), /http/);
    assert.throws(() => resolveBaseUrl({ baseUrl: "https://u:p@x.test" }), /credentials/);
    assert.throws(
      () => resolveBaseUrl({ region: "eu/../x", host: "h.test", env: env({}) }),
      /region/,
    );
  });
});

describe("areaPrefixes", () => {
  it("defaults to the operation table's prefixes", () => {
    const p = areaPrefixes({ env: env({}) });
    assert.equal(p.estate, "/api/sam/estate/v1");
    assert.equal(p.registry, "/api/sam/softwareregistry/v1");
    assert.equal(p.connectors, "/api/cloud-cost/v1");
  });

  it("takes the registry spelling and the connector prefix from options or env", () => {
    assert.equal(
      areaPrefixes({ registryPrefix: "software-registry", env: env({}) }).registry,
      "/api/sam/software-registry/v1",
    );
    const p = areaPrefixes({
      env: env({ SAM_REGISTRY_PREFIX: "/custom/reg/", SAM_CONNECTORS_PREFIX: "api/cc/v2" }),
    });
    assert.equal(p.registry, "/custom/reg");
    assert.equal(p.connectors, "/api/cc/v2");
  });
});
