import { AccountStatus, CustomerGroup, Exchange, Gender } from '../../contract/enums';

/** Every demo account signs in with this password (and the 2FA code written to DATA_DIR/outbox). */
export const DEMO_PASSWORD = 'demo-password-2024';
export const DEMO_EMAIL_DOMAIN = 'demo.copytrade.local';

export interface DemoPerson {
  firstName: string;
  lastName: string;
  email: string;
  country: string;
  gender: Gender;
  age: number;
}

const person = (firstName: string, lastName: string, country: string, gender: Gender, age: number, local?: string): DemoPerson => ({
  firstName,
  lastName,
  country,
  gender,
  age,
  email: `${local ?? `${firstName}.${lastName}`.toLowerCase()}@${DEMO_EMAIL_DOMAIN}`,
});

export const demoAdmin = person('Grace', 'Tan', 'SG', Gender.Female, 44, 'admin');
export const demoEmployees = [person('Marcus', 'Lim', 'SG', Gender.Male, 31), person('Aisha', 'Rahman', 'MY', Gender.Female, 27)];

/** Five agents; the last one is blocked (the agent list shows Active and Suspended counts). */
export const demoAgents: Array<DemoPerson & { status: AccountStatus; customers: number }> = [
  { ...person('Daniel', 'Wong', 'SG', Gender.Male, 39), status: AccountStatus.Active, customers: 18 },
  { ...person('Priya', 'Nair', 'MY', Gender.Female, 35), status: AccountStatus.Active, customers: 14 },
  { ...person('Somchai', 'Chaiyaporn', 'TH', Gender.Male, 42), status: AccountStatus.Active, customers: 12 },
  { ...person('Linh', 'Nguyen', 'VN', Gender.Female, 29), status: AccountStatus.Active, customers: 10 },
  { ...person('Kenji', 'Sato', 'JP', Gender.Male, 47), status: AccountStatus.Blocked, customers: 6 },
];

const firstNames = [
  'Oliver', 'Mei', 'Arjun', 'Sofia', 'Hiro', 'Nadia', 'Lucas', 'Ying', 'Rahul', 'Chloe', 'Tariq', 'Hana', 'Marco', 'Siti', 'Ethan',
  'Ananya', 'Felix', 'Jia', 'Omar', 'Isabel', 'Wei', 'Lena', 'Kai', 'Farah', 'Leo', 'Mina', 'Noah', 'Rina', 'Ivan', 'Zara',
];
const lastNames = ['Chen', 'Kumar', 'Rossi', 'Tanaka', 'Ali', 'Silva', 'Park', 'Meyer', 'Ong', 'Garcia', 'Ismail', 'Novak', 'Reyes', 'Kaur', 'Lee'];
const countries = ['SG', 'MY', 'TH', 'VN', 'ID', 'PH', 'JP', 'AU', 'GB', 'DE', 'AE', 'IN'];
const groups = [CustomerGroup.Gold, CustomerGroup.Internal, CustomerGroup.Vip, CustomerGroup.Occasion, CustomerGroup.Exclusive];

/** Where each demo customer ends up; Pending ones wait for approval (some without a group yet). */
const statusCycle = [
  AccountStatus.Active, AccountStatus.Active, AccountStatus.Pending, AccountStatus.Active, AccountStatus.Blocked,
  AccountStatus.Active, AccountStatus.Active, AccountStatus.Rejected, AccountStatus.Active, AccountStatus.Active,
];

export interface DemoCustomer extends DemoPerson {
  /** Index into demoAgents. */
  agent: number;
  group: CustomerGroup | null;
  status: AccountStatus;
  exchange: typeof Exchange.Bitget | typeof Exchange.Bybit;
  profitSharePct: number;
  /** USDT the sandbox account starts with. */
  balance: number;
  /** Where between the demo's first month and a week before seeding the customer joined (0 to 1). */
  joinedAt: number;
}

/** 60 customers across every agent, group, country, exchange and status, joined over many months. */
export function demoCustomers(): DemoCustomer[] {
  const list: DemoCustomer[] = [];
  let n = 0;
  demoAgents.forEach((agent, agentIndex) => {
    for (let k = 0; k < agent.customers; k++, n++) {
      const firstName = firstNames[n % firstNames.length]!;
      const lastName = lastNames[(n * 7) % lastNames.length]!;
      const status = statusCycle[n % statusCycle.length]!;
      list.push({
        ...person(firstName, lastName, countries[n % countries.length]!, n % 2 === 0 ? Gender.Male : Gender.Female, 22 + ((n * 5) % 40), `${firstName}.${lastName}.${n + 1}`.toLowerCase()),
        agent: agentIndex,
        group: status === AccountStatus.Pending && n % 4 === 2 ? null : groups[n % groups.length]!,
        status,
        exchange: n % 3 === 0 ? Exchange.Bitget : Exchange.Bybit,
        profitSharePct: [15, 20, 25, 30][n % 4]!,
        balance: 500 + ((n * 977) % 20_000),
        // 37 and 60 are coprime: every agent gets customers from early and recent months.
        joinedAt: ((n * 37) % 60) / 59,
      });
    }
  });
  return list;
}
