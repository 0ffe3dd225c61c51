import type { Deps } from '../deps';
import type { ManualClock } from '../lib/clock';
import { findAccountByEmail } from '../modules/accounts/repository';
import { demoAdmin } from './data';
import { demoSeededAt, markDemoSeeded } from './marker';
import { seedDemo } from './seed';

export type DemoSeeding = { seeded: true; seededAt: string } | { seeded: false; seededAt: string };

/**
 * Seeds the demo data set unless this database has it already (the marker is written last, in the
 * same run): a second `npm run demo` adds nothing. A database holding demo people without the
 * marker is a seeding that did not finish, which is refused rather than doubled.
 */
export async function seedDemoOnce(deps: Deps, clock: ManualClock, dataDir: string): Promise<DemoSeeding> {
  const seededAt = await demoSeededAt(deps.db);
  if (seededAt) return { seeded: false, seededAt };
  if (await findAccountByEmail(deps.db, demoAdmin.email)) {
    throw new Error(`A previous demo seeding of ${dataDir} did not finish. Delete that directory and run npm run demo again.`);
  }
  await seedDemo(deps, clock);
  await markDemoSeeded(deps.db, clock.now());
  return { seeded: true, seededAt: clock.now().toISOString() };
}
