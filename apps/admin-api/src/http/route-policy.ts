import { RequestMethod, type DynamicModule, type INestApplication, type Type } from '@nestjs/common';
import { GUARDS_METADATA, INTERCEPTORS_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import { MetadataScanner, ModulesContainer } from '@nestjs/core';
import { isIdempotent } from '../idempotency/idempotent-requests';
import { RequestPolicyInterceptor } from './request-policy.interceptor';
import { UndeclaredInputGuard } from './undeclared-input';

const READS = new Set([RequestMethod.GET, RequestMethod.HEAD, RequestMethod.OPTIONS]);

type Enhancer = Type | object;
type ModuleEntry = Type | DynamicModule | Promise<DynamicModule> | undefined;

/**
 * Which routes run the request policy. A route that changes something (or replays answers, @Idempotent) runs
 * RequestPolicyInterceptor; a read only needs its undeclared input refused, by a guard. Nest binds an async
 * resource and builds rxjs pipes for every interceptor of a route on every request, which was a fifth of a
 * simple GET's cost, so reads have none. Declared on each route before Nest scans the module (it then provides
 * the interceptor in each controller's module); `assertRequestPolicy` checks every route of the built app.
 */
export function declareRequestPolicy(root: ModuleEntry): void {
  for (const controller of controllersOf(root, new Set())) {
    forEachRoute(controller, (handler, method) => {
      if (READS.has(method) && !isIdempotent(handler))
        setEnhancer(GUARDS_METADATA, handler, UndeclaredInputGuard);
      else setEnhancer(INTERCEPTORS_METADATA, handler, RequestPolicyInterceptor);
    });
  }
}

/** Stops the start if a route of the built app has no policy (a controller `declareRequestPolicy` missed). */
export function assertRequestPolicy(app: INestApplication): void {
  for (const module of app.get(ModulesContainer).values()) {
    for (const { metatype } of module.controllers.values()) {
      forEachRoute(metatype as Type, (handler) => {
        const enhancers = [
          ...((Reflect.getMetadata(INTERCEPTORS_METADATA, handler) as Enhancer[] | undefined) ?? []),
          ...((Reflect.getMetadata(GUARDS_METADATA, handler) as Enhancer[] | undefined) ?? []),
        ];
        if (!enhancers.includes(RequestPolicyInterceptor) && !enhancers.includes(UndeclaredInputGuard)) {
          throw new Error(`${(metatype as Type).name}.${handler.name} has no request policy`);
        }
      });
    }
  }
}

function forEachRoute(controller: Type, visit: (handler: () => unknown, method: RequestMethod) => void) {
  const prototype = controller.prototype as Record<string, unknown>;
  for (const name of new MetadataScanner().getAllMethodNames(prototype)) {
    const handler = prototype[name];
    if (typeof handler !== 'function') continue;
    const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
    if (method !== undefined) visit(handler as () => unknown, method);
  }
}

/** Once per route, however many apps a process starts (tests start several). */
function setEnhancer(key: string, handler: () => unknown, enhancer: Type): void {
  const existing = (Reflect.getMetadata(key, handler) as Enhancer[] | undefined) ?? [];
  if (!existing.includes(enhancer)) Reflect.defineMetadata(key, [enhancer, ...existing], handler);
}

function controllersOf(entry: ModuleEntry, seen: Set<unknown>): Type[] {
  if (!entry || entry instanceof Promise || seen.has(entry)) return [];
  seen.add(entry);
  const module = typeof entry === 'function' ? entry : entry.module;
  const dynamic = typeof entry === 'function' ? undefined : entry;
  const imports = [
    ...((Reflect.getMetadata('imports', module) as ModuleEntry[] | undefined) ?? []),
    ...((dynamic?.imports as ModuleEntry[] | undefined) ?? []),
  ];
  return [
    ...((Reflect.getMetadata('controllers', module) as Type[] | undefined) ?? []),
    ...(dynamic?.controllers ?? []),
    ...imports.flatMap((i) => controllersOf(i, seen)),
  ];
}
