import { customerCreateBody } from '../../contract/api/customer';
import { FIRST_FILTER_MONTH } from '../../contract/constants';
import { AccountStatus, AccountType, CustomerGroup, Gender } from '../../contract/enums';
import type { Deps } from '../deps';
import { ensureAdmin } from '../cli/admin';
import { DAY_MS, type ManualClock } from '../lib/clock';
import { changeAccountStatus } from '../modules/accounts/service';
import { createAgent } from '../modules/agents/service';
import { register } from '../modules/auth/registration';
import { createCustomer } from '../modules/customers/service';
import { createEmployee } from '../modules/employees/service';
import { createRegistrationId } from '../modules/registration-ids/service';
import { DEMO_EMAIL_DOMAIN, DEMO_PASSWORD, demoAdmin, demoAgents, demoCustomers, demoEmployees, type DemoCustomer } from './data';
import { planTrades } from './history-plan';
import { replayTrade } from './history';
import { DemoPrices } from './market';
import { backdateAccount, countryIds, createAccountAsStaff, phoneOf, type CountryIds } from './people';
import { openSandboxAccount } from './sandbox';
import { createDemoStrategies } from './strategies';
import { seedDemoSwitches } from './switches';
import { settleDemoWallets } from './wallets';

const HOUR_MS = 60 * 60 * 1000;
/** Seeds of the demo's random draws: the same data set on every machine. */
const PRICE_SEED = 2024;
const TRADE_SEED = 7;

/**
 * Fills an empty database with the demo data set through the services the API uses. `clock` is the
 * clock of `deps`: it is moved back to date Registration IDs, customers and the trading history in
 * the past, and left at the seeding instant at the end. Customers join and the strategies trade in
 * one timeline, so each Order goes to the customers who were active when it was placed.
 */
export async function seedDemo(deps: Deps, clock: ManualClock): Promise<void> {
  const now = clock.now();
  const at = (msAgo: number) => clock.set(new Date(now.getTime() - msAgo));
  const customers = demoCustomers();
  const countries = await countryIds(deps, [...new Set([...demoEmployees, ...demoAgents, ...customers].map((p) => p.country))]);
  const country = (code: string) => {
    const found = countries.get(code);
    if (!found) throw new Error(`Country ${code} is missing from the reference data`);
    return found;
  };

  // Customers joined from the first month of the month filter (May 2024), at most 30 months back, to a week ago.
  const firstDay = Math.max(Date.parse(`${FIRST_FILTER_MONTH}-01T00:00:00Z`), now.getTime() - 30 * 30 * DAY_MS);
  const span = Math.max(0, now.getTime() - 7 * DAY_MS - firstDay);
  const joinedAt = (customer: DemoCustomer) => firstDay + customer.joinedAt * span;

  // The staff and the agents joined over the history too ('Since' is not the seeding day): the
  // admin and the employees before the first customer, each agent a while before their first customer.
  clock.set(new Date(firstDay - 120 * DAY_MS));
  const admin = await ensureAdmin(deps.db, demoAdmin.email, DEMO_PASSWORD);
  await backdateAccount(deps, admin.accountId, clock.now());
  for (const [i, person] of demoEmployees.entries()) {
    clock.set(new Date(firstDay - (90 - 30 * i) * DAY_MS));
    const accountId = await createAccountAsStaff(deps, admin.accountId, person, AccountType.Employee, country(person.country), 100 + i);
    await createEmployee(deps, admin.accountId, accountId);
  }

  const agents: Array<{ id: number; accountId: number }> = [];
  for (const [i, person] of demoAgents.entries()) {
    const firstCustomer = Math.min(...customers.filter((customer) => customer.agent === i).map(joinedAt));
    clock.set(new Date(Math.max(firstDay - 60 * DAY_MS, firstCustomer - (14 + 3 * i) * DAY_MS)));
    const accountId = await createAccountAsStaff(deps, admin.accountId, person, AccountType.Agent, country(person.country), 200 + i);
    agents.push({ id: await createAgent(deps, admin.accountId, accountId), accountId });
  }

  for (const [i, agent] of agents.entries()) await seedRegistrationIds(deps, admin.accountId, agent, i, countries, at);

  at(now.getTime() - (firstDay - 14 * DAY_MS));
  await createDemoStrategies(deps, admin.accountId);

  // The strategies trade from the first customer's arrival to four days ago (every trade is over by then).
  const trades = planTrades(new Date(firstDay), new Date(now.getTime() - 4 * DAY_MS), TRADE_SEED);
  const prices = new DemoPrices(new Date(firstDay), PRICE_SEED);
  const timeline = [
    ...customers.map((customer, n) => ({ at: joinedAt(customer), run: () => seedCustomer(deps, admin.accountId, agents[customer.agent]!.id, customer, country(customer.country), n) })),
    ...trades.map((trade) => ({ at: trade.at.getTime(), run: () => replayTrade(deps, clock, prices, trade) })),
  ].sort((a, b) => a.at - b.at);
  for (const event of timeline) {
    clock.set(new Date(event.at));
    await event.run();
  }
  clock.set(now);
  const deposits = new Map(customers.map((customer) => [customer.email, customer.balance]));
  await settleDemoWallets(deps, (email) => deposits.get(email) ?? 0);
  await seedDemoSwitches(deps, admin.accountId, now);

  for (const [i, person] of demoAgents.entries()) {
    if (person.status !== AccountStatus.Active) await changeAccountStatus(deps, admin.accountId, agents[i]!.accountId, person.status);
  }
}

/** Per agent: three pending codes, two expired ones, two used by people who signed up and have not connected an exchange yet. */
async function seedRegistrationIds(
  deps: Deps,
  adminAccountId: number,
  agent: { id: number; accountId: number },
  index: number,
  countries: CountryIds,
  at: (msAgo: number) => void,
) {
  /** Older codes were made by the admin on the agent's behalf, the recent ones by the agent. */
  const create = async (msAgo: number, byStaff: boolean) => {
    at(msAgo);
    return createRegistrationId(deps, { actorAccountId: byStaff ? adminAccountId : agent.accountId, agentId: agent.id, byStaff });
  };
  await create(45 * DAY_MS, true);
  await create(20 * DAY_MS + 3 * HOUR_MS, true);
  for (const [k, daysAgo] of [10, 6].entries()) {
    const code = await create(daysAgo * DAY_MS, true);
    at((daysAgo - 2) * DAY_MS);
    const firstName = ['Ravi', 'Elena', 'Tomás', 'Yuki', 'Amara', 'Jonas', 'Lucia', 'Bilal', 'Nora', 'Hugo'][index * 2 + k] ?? 'Alex';
    const sg = countries.get('SG')!;
    await register(deps, {
      registrationId: code.code,
      firstName,
      lastName: 'Prospect',
      email: `${firstName.normalize('NFD').replace(/[^A-Za-z]/g, '').toLowerCase()}.prospect@${DEMO_EMAIL_DOMAIN}`,
      age: 30 + index + k,
      phone: phoneOf(sg.dialCode, 300 + index * 2 + k),
      countryId: sg.id,
      gender: k === 0 ? Gender.Male : Gender.Female,
      password: DEMO_PASSWORD,
    });
  }
  for (const hoursAgo of [72, 20, 2]) await create(hoursAgo * HOUR_MS, false);
}

/** The staff add-customer flow (account, then exchange credentials and agent), then approval, rejection or block. */
export async function seedCustomer(deps: Deps, adminAccountId: number, agentId: number, customer: DemoCustomer, country: { id: number; dialCode: string }, n: number) {
  const accountId = await createAccountAsStaff(deps, adminAccountId, customer, AccountType.Customer, country, 400 + n);
  const exchange = openSandboxAccount(customer.exchange, customer.balance, customer.email);
  await createCustomer(
    deps,
    adminAccountId,
    customerCreateBody.parse({
      accountId,
      platformType: customer.exchange,
      apiKey: exchange.apiKey,
      apiSecret: exchange.secret,
      passphrase: exchange.passphrase || null,
      exchangeAccountUUID: exchange.uid,
      agentId,
      ...(customer.group === CustomerGroup.Exclusive ? { isExclusive: true } : { group: customer.group }),
      profitSharePct: customer.profitSharePct,
    }),
  );
  if (customer.status === AccountStatus.Pending) return;
  if (customer.status === AccountStatus.Rejected) {
    await changeAccountStatus(deps, adminAccountId, accountId, AccountStatus.Rejected);
    return;
  }
  await changeAccountStatus(deps, adminAccountId, accountId, AccountStatus.Active);
  if (customer.status === AccountStatus.Blocked) await changeAccountStatus(deps, adminAccountId, accountId, AccountStatus.Blocked);
}
