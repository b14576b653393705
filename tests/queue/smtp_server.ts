/**
 * Test helper: an SMTP server on loopback (no TLS, AUTH PLAIN/LOGIN allowed in the clear) that
 * keeps every message and every login it receives.
 *
 * @module
 */

import { SMTPServer } from "smtp-server";

/** A running test SMTP server. */
export interface TestSmtp {
  /** Its port on 127.0.0.1. */
  readonly port: number;
  /** Raw messages received, in order. */
  readonly messages: Uint8Array[];
  /** Envelope recipients of each message. */
  readonly recipients: string[][];
  /** Logins, as `user:password`. */
  readonly logins: string[];
  /** Stops it. */
  close(): Promise<void>;
}

async function readAll(stream: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(new Uint8Array(chunk));
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) all.set(c, at), at += c.length;
  return all;
}

/**
 * Starts the server on a free port of 127.0.0.1.
 *
 * @example
 * ```ts ignore
 * import { startTestSmtp } from "./smtp_server.ts";
 * const smtp = await startTestSmtp();
 * await smtp.close();
 * ```
 */
export async function startTestSmtp(): Promise<TestSmtp> {
  const messages: Uint8Array[] = [];
  const recipients: string[][] = [];
  const logins: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth(auth, _session, callback) {
      logins.push(`${auth.username}:${auth.password}`);
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      readAll(stream as AsyncIterable<Uint8Array>).then((all) => {
        messages.push(all);
        recipients.push(session.envelope.rcptTo.map((r) => r.address));
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    port,
    messages,
    recipients,
    logins,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
