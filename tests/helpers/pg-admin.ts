import pg from 'pg';

export async function adminQuery(adminUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** The same server and credentials, another database. */
export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** CREATE DATABASE ... TEMPLATE, retried while another file is copying the same template. */
export async function createDatabaseFromTemplate(adminUrl: string, name: string, template: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await adminQuery(adminUrl, `create database "${name}" template "${template}"`);
      return;
    } catch (error) {
      if (attempt >= 20 || !(error instanceof Error && /being accessed by other users/.test(error.message))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
    }
  }
}
