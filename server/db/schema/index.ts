export * from './accounts';
export * from './people';
export * from './trading';
export * from './health';
