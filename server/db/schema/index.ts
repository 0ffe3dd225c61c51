export * from './accounts';
export * from './people';
export * from './trading';
export * from './health';
export * from './sign-in';
export * from './switches';
export * from './guards';
export * from './sql-functions';
