import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { REPORTS } from "../../reports/mod.ts";
import { validatePack } from "../../lib/pack/pack_file.ts";

const report = (x: Record<string, unknown> = {}) => ({ id: "stale-computers", ...x });
const pack = (x: Record<string, unknown> = {}) => ({ name: "weekly", reports: [report()], ...x });
const email = (x: Record<string, unknown> = {}) => ({
  host: "smtp.example.com",
  from: "a@example.com",
  to: ["b@example.com"],
  ...x,
});

function problem(doc: unknown): string {
  try {
    validatePack(doc, { file: "p.json", reports: REPORTS });
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error("the pack was accepted");
}

/** Documents with two bad fields, and the one the message names. */
const FIRST_OF_TWO: [string, unknown, string][] = [
  ["an unknown field before the name", { bogus: 1 }, "p.json: bogus: unknown field"],
  [
    "a report's unknown field before its id",
    pack({ reports: [{ id: "nope", x: 1 }] }),
    "p.json: reports[0].x: unknown field",
  ],
  [
    "a report's parameters before its formats",
    pack({ reports: [report({ formats: ["doc"], params: { days: 0 } })] }),
    'p.json: reports[0].params.days: parameter "days": must be at least 1, got 0',
  ],
  [
    "allowUnknownFields before the filter",
    pack({ reports: [report({ filter: 3, allowUnknownFields: 3 })] }),
    "p.json: reports[0].allowUnknownFields: expected true or false",
  ],
  [
    "the reports before the schedule",
    pack({ reports: [report({ formats: [] })], schedule: 1 }),
    "p.json: reports[0].formats: expected a non-empty list",
  ],
  [
    "the cron's type before the time zone",
    pack({ schedule: { cron: 5, timezone: "Mars/X" } }),
    'p.json: schedule.cron: expected a cron expression such as "0 6 * * 1"',
  ],
  [
    "the time zone before the cron expression itself",
    pack({ schedule: { cron: "61 * * * *", timezone: "Mars/X" } }),
    'p.json: schedule.timezone: unknown time zone "Mars/X"',
  ],
  [
    "the schedule before the email",
    pack({ schedule: 1, email: 1 }),
    "p.json: schedule: expected an object",
  ],
  [
    "the email before the reporting currency",
    pack({ email: 1, reportingCurrency: "eur" }),
    "p.json: email: expected an object",
  ],
  [
    "an unknown email field before a credential after it",
    pack({ email: email({ bcc: [], pass: "x" }) }),
    "p.json: email.bcc: unknown field",
  ],
  [
    "the TLS mode before the port",
    pack({ email: email({ port: 0, tls: 5 }) }),
    "p.json: email.tls: expected starttls, tls or none",
  ],
  [
    "the evidence link before the attachment cap",
    pack({ email: email({ maxAttachmentBytes: -1, evidenceUrl: "x" }) }),
    "p.json: email.evidenceUrl: expected an http(s) URL",
  ],
  [
    "the subject before the recipients",
    pack({ email: email({ to: ["x"], subject: 1 }) }),
    "p.json: email.subject: expected text",
  ],
  [
    "to before cc",
    pack({ email: email({ to: ["x"], cc: ["y"] }) }),
    'p.json: email.to: not an email address: "x"',
  ],
];

describe("pack file validation order", () => {
  for (const [name, doc, message] of FIRST_OF_TWO) {
    it(`names ${name}`, () => assert.equal(problem(doc), message));
  }

  it("refuses a credential in the email section by name, pointing at the variables", () => {
    assert.equal(
      problem(pack({ email: email({ smtpPassword: "hunter2" }) })),
      'p.json: email: field "smtpPassword" is not allowed: credentials belong in ' +
        "SAMKIT_SMTP_USER and SAMKIT_SMTP_PASSWORD, never in the pack file",
    );
  });

  it("returns the pack's fields in one order whatever the document's order", () => {
    const doc = {
      fxRates: "r.csv",
      reportingCurrency: "EUR",
      email: { to: ["b@example.com"], from: "a@example.com", host: "smtp.example.com" },
      schedule: { timezone: "UTC", cron: "0 6 * * 1" },
      reports: [{ formats: ["csv"], id: "stale-computers" }],
      name: "z",
    };
    const checked = validatePack(doc, { file: "p.json", reports: REPORTS });
    assert.deepEqual(Object.keys(checked), [
      "name",
      "output",
      "reports",
      "schedule",
      "email",
      "reportingCurrency",
    ]);
    assert.deepEqual(Object.keys(checked.reports[0]), ["id", "params", "formats"]);
    assert.deepEqual(Object.keys(checked.schedule!), ["cron", "timezone"]);
    assert.deepEqual(Object.keys(checked.email!), [
      "host",
      "port",
      "tls",
      "from",
      "to",
      "cc",
      "subject",
      "attach",
      "maxAttachmentBytes",
    ]);
  });
});
