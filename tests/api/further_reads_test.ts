/**
 * The public service's further reads through the client against the reference server, in both
 * dialects: each answers, pages as an async iterator, agrees with the estate it comes from, and
 * answers 404 for an unknown parent.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createClient, type SamClient } from "../../lib/api/client.ts";
import { NotFoundError } from "../../lib/api/errors.ts";
import type { Dialect } from "../../lib/server/serialize.ts";
import { withServer } from "../helpers/server.ts";

const clientOf = (url: string): SamClient =>
  createClient({ baseUrl: url, auth: { clientId: "demo", clientSecret: "demo-secret" } });

const rejectsNotFound = (p: Promise<unknown>, what: string) =>
  assert.rejects(p, (e) => e instanceof NotFoundError, what);

/** Every item of a paged read, gathered by iterating it in pages of `size`. */
async function iterate<T>(
  paged: AsyncIterable<T> & { pages(): AsyncIterable<{ items: T[] }> },
): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let pages = 0;
  for await (const page of paged.pages()) {
    pages++;
    items.push(...page.items);
  }
  return { items, pages };
}

for (const dialect of ["spec", "real"] as Dialect[]) {
  describe(`further registry reads (${dialect} dialect)`, () => {
    it("families, platforms and types are the registry's own, each readable by id", async () => {
      await withServer({ computers: 120, dialect }, async (srv) => {
        const client = clientOf(srv.url);
        const apps = await client.registry.applications().toArray();
        const families = await client.registry.families().toArray();
        assert.deepEqual(
          families.map((f) => f.id).sort(),
          [...new Set(apps.map((a) => a.familyId))].sort(),
        );
        const one = await client.registry.family(families[3].id!);
        assert.equal(one.name, families[3].name);
        const platforms = await client.registry.platforms().toArray();
        assert.deepEqual(
          platforms.map((p) => p.name).sort(),
          [...new Set(apps.map((a) => a.platform))].sort(),
        );
        const types = await client.registry.applicationTypes().toArray();
        const typeIds = new Set(types.map((t) => t.id));
        const os = apps.find((a) => a.isOs)!;
        const osTypes = await client.registry.typesOfApplication(os.id!).toArray();
        assert.ok(osTypes.some((t) => t.name === "Operating system"), "an OS is typed as one");
        for (const t of osTypes) assert.ok(typeIds.has(t.id), `${t.id} is a listed type`);
        assert.equal((await client.registry.applicationType(osTypes[0].id!)).name, osTypes[0].name);
        await rejectsNotFound(client.registry.family("FAM999"), "family");
        await rejectsNotFound(client.registry.typesOfApplication("APP9999").toArray(), "types");
      });
    });

    it("compatibility is the application's family; downgrades have lower versions", async () => {
      await withServer({ computers: 120, dialect }, async (srv) => {
        const client = clientOf(srv.url);
        const apps = new Map(
          (await client.registry.applications().toArray()).map((a) => [a.id, a]),
        );
        let seen = 0;
        for (const app of [...apps.values()].slice(0, 30)) {
          for await (const c of client.registry.compatibility(app.id!, { pageSize: 2 })) {
            seen++;
            const other = apps.get(c.id)!;
            assert.equal(other.familyId, app.familyId, `${app.id} ~ ${c.id}`);
            const lower = other.versionIndex! < app.versionIndex!;
            assert.equal(c.compatibilityType === "Downgrade", lower, `${app.id} ~ ${c.id}`);
            const one = await client.registry.compatibleApplication(app.id!, c.id!);
            assert.equal(one.compatibilityType, c.compatibilityType);
          }
          const groups = await client.registry.groups(app.id!).toArray();
          assert.equal(groups.length, 1, `${app.id}: one group, its family`);
        }
        assert.ok(seen > 5, `only ${seen} compatible applications`);
        await rejectsNotFound(client.registry.compatibility("APP9999").toArray(), "compat");
        await rejectsNotFound(client.registry.groups("APP9999").toArray(), "groups");
        await rejectsNotFound(client.registry.store("APP9999").toArray(), "store");
      });
    });

    it("a bundle's components are what is installed as part of it; SKUs are article numbers", async () => {
      await withServer({ computers: 120, dialect }, async (srv) => {
        const client = clientOf(srv.url);
        const installs = await client.estate.applications().toArray();
        const bundled = installs.filter((i) => i.bundleApplicationId);
        assert.ok(bundled.length > 0);
        const bundle = bundled[0].bundleApplicationId!;
        const parts = await client.registry.bundles(bundle).toArray();
        assert.deepEqual(
          parts.map((p) => p.id).sort(),
          [
            ...new Set(
              bundled.filter((i) => i.bundleApplicationId === bundle).map((i) => i.applicationId),
            ),
          ].sort(),
        );
        assert.equal((await client.registry.bundle(bundle, parts[0].id!)).name, parts[0].name);
        const licenses = await client.licenses.get((await client.licenses.list().toArray())[0].id!);
        const skuId = (licenses as unknown as { skuId: string }).skuId;
        const article = await client.registry.articleNumber(skuId);
        assert.equal(article.applicationId, licenses.applicationId);
        const { items, pages } = await iterate(client.registry.articleNumbers({ pageSize: 10 }));
        assert.ok(pages > 1 && items.some((a) => a.id === skuId));
        const stores = await client.registry.applications({ filter: "isWebApplication -eq true" })
          .toArray();
        if (stores.length) {
          assert.equal((await client.registry.store(stores[0].id!).toArray()).length, 1);
        }
      });
    });
  });

  describe(`further estate and license reads (${dialect} dialect)`, () => {
    it("remote clients of a server are users who logged on to it", async () => {
      await withServer({ computers: 120, dialect }, async (srv) => {
        const client = clientOf(srv.url);
        const servers = await client.estate.computers({ filter: "isServer -eq true" }).toArray();
        let seen = 0;
        for (const s of servers.slice(0, 10)) {
          const users = new Set(
            (await client.estate.logonHistory(s.id!).toArray()).map((l) => l.userId),
          );
          for await (const rc of client.estate.remoteClients(s.id!, { pageSize: 2 })) {
            seen++;
            assert.ok(users.has(rc.userId), `${s.id}: ${rc.userId} logged on`);
            assert.ok(rc.lastConnected instanceof Date);
          }
        }
        assert.ok(seen > 0);
        await rejectsNotFound(client.estate.remoteClients("C999999").toArray(), "computer");
      });
    });

    it("a cluster's applications, its members' features and the hypervisor types agree", async () => {
      await withServer({ computers: 200, dialect }, async (srv) => {
        const client = clientOf(srv.url);
        const types = await client.estate.hypervisorTypes().toArray();
        for (const c of await client.estate.dataCenterClusters().toArray()) {
          assert.ok(types.some((t) => t.name === c.hypervisor), `${c.hypervisor} is a type`);
          const apps = await client.estate.dccApplications(c.id!).toArray();
          const members = await client.estate.dccMembers(c.id!).toArray();
          const installed = await client.estate.computerApplications(members[0].computerId!, {
            filter: "isInstalled -eq true",
          }).toArray();
          for (const i of installed) {
            assert.ok(apps.some((a) => a.applicationId === i.applicationId), i.applicationId!);
          }
          assert.ok(apps.every((a) => a.computerCount! >= 1));
          const features = await client.estate.dccMemberFeatures(c.id!, members[0].id!).toArray();
          const ha = features.find((f) => f.name === "High availability")!;
          assert.equal(ha.isEnabled, c.isHighAvailability);
        }
        assert.equal((await client.estate.hypervisorType(types[0].id!)).name, types[0].name);
        await rejectsNotFound(client.estate.dccApplications("DCC99").toArray(), "cluster");
        await rejectsNotFound(client.estate.hypervisorType("HYP99"), "hypervisor type");
      });
    });

    it("assignment types name every license's assignmentTypeId", async () => {
      await withServer({ computers: 60, dialect }, async (srv) => {
        const client = clientOf(srv.url);
        const names = new Map(
          (await client.licenses.assignmentTypes().toArray()).map((t) => [t.id, t.name]),
        );
        assert.equal(names.get("AST02"), "Computer");
        for (const l of (await client.licenses.list().toArray()).slice(0, 20)) {
          const id = (l as unknown as { assignmentTypeId: string | null }).assignmentTypeId;
          if (id) assert.ok(names.has(id), `${l.id}: ${id}`);
        }
      });
    });

    it("user discovery counts each user's logons; user metering is their usage, paged", async () => {
      await withServer({ computers: 120, dialect }, async (srv) => {
        const client = clientOf(srv.url);
        const { items: found, pages } = await iterate(
          client.estate.userDiscoveries({ pageSize: 20 }),
        );
        assert.ok(pages > 1, "several pages");
        const user = found.find((u) => u.logonCount! > 0)!;
        const logons = await client.estate.userLogonHistory(user.id!).toArray();
        const one = await client.estate.userDiscovery(user.id!);
        assert.equal(one.logonCount, logons.reduce((t, l) => t + l.logonCount!, 0));
        assert.equal(one.computerCount, new Set(logons.map((l) => l.computerId)).size);
        const mine = await client.estate.userMetering(user.id!).toArray();
        const all = await client.estate.userMeterings({ filter: `userId -eq "${user.id}"` })
          .toArray();
        assert.deepEqual(mine.map((m) => m.applicationId), all.map((m) => m.applicationId));
        await rejectsNotFound(client.estate.userMetering("U99999").toArray(), "user");
        await rejectsNotFound(client.estate.userDiscovery("U99999"), "user");
      });
    });
  });
}
