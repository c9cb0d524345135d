/**
 * The modules the site loads only when first needed: the machine routes and the problem codes
 * (`require` in `app.ts`), the arktype header schemas (`require` in `api/header-specs.ts`), the JWT
 * signer and verifier (`require` in `oauth/tokens.ts`) and the Redis quota (`import()` in `main.ts`). Running from source, nothing imports this module: each is
 * loaded where it is asked for. The compiled executable (`scripts/site-compile.ts`) makes this module
 * an entry point of its own and sends those four loads here, so that the main bundle, which every
 * start loads and evaluates, holds none of their code (the OpenAPI generator, the tool server,
 * arktype: about as much code as the rest of the site), and the modules they share with it (the
 * core, the content) are the main bundle's own, not copies (issue 18, item 6).
 */
export * as arktype from 'arktype';
export * as headerSchemas from './api/header-schemas.ts';
export * as jwt from '@charter/jwt';
export * as machineRoutes from './api/machine-routes.ts';
export * as problems from './problems.ts';
export * as quota from './quota.ts';
