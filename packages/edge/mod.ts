export * from './src/env.ts';
export * from './src/config.ts';
export * from './src/jwt.ts';
export * from './src/db.ts';
export * from './src/http-error.ts';
export * from './src/cors.ts';
export * from './src/context.ts';
