import { ZoneInfo } from '@fleet/contract';
import type { Db } from '../db/database.js';
import { hashDeviceSecret } from '../credentials/device-secret.js';
import { hashPassword } from '../credentials/password.js';
import { addCarsToGroup, insertGroup } from '../groups/groups.repository.js';
import { insertZone, replaceGroupZones } from '../zones/zones.repository.js';
import { DEMO_PASSWORD, demoAccounts, demoCompanies, demoFleet, demoGroups } from './demo-data.js';

/** True when no account exists yet: the only time demo data is seeded. */
export async function isEmpty(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n) === 0;
}

/** Seeds the demo in one transaction: all of it or nothing. */
export async function seedDemo(db: Db, hashLog2N?: number): Promise<void> {
  const passwordHash = await hashPassword(DEMO_PASSWORD, hashLog2N);
  const fleet = demoFleet();
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('companies').values(demoCompanies).execute();
    await trx
      .insertInto('accounts')
      .values(demoAccounts.map(({ label: _label, ...a }) => ({ ...a, password_hash: passwordHash })))
      .execute();
    await trx
      .insertInto('car_users')
      .values(fleet.map((f) => f.user as never))
      .execute();
    await trx
      .insertInto('devices')
      .values(fleet.map(({ device: { password, ...d } }) => ({ ...d, password_hash: hashDeviceSecret(password) })))
      .execute();
    await trx
      .insertInto('cars')
      .values(
        fleet.map((f) => ({
          ...f.car,
          user_id: f.user.user_id as string,
          car_device_id: f.device.car_device_id,
          car_data_id: f.device.car_data_id,
        })),
      )
      .execute();
    // Groups with their vehicles and zones, through the same repository calls as the console's.
    const now = new Date();
    for (const g of demoGroups) {
      const groupId = await insertGroup(trx, g.company_id, g.name, now);
      await addCarsToGroup(
        trx,
        groupId,
        g.cars.map((i) => fleet[i]!.car.car_id),
      );
      const zoneIds: string[] = [];
      for (const z of g.zones) zoneIds.push(await insertZone(trx, g.company_id, ZoneInfo.parse(z), now));
      await replaceGroupZones(trx, groupId, g.company_id, zoneIds);
    }
  });
}
