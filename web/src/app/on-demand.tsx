import { use, useEffect, useState, type ComponentType } from 'react';

/*
 * Code loaded on demand, so /login and the public QR form download and run only their own
 * (issue 32, item 7): each screen, and the live-update wiring of a signed-in session.
 * Not React.lazy: what is already loaded renders at once, without a Suspense round, so the
 * component tests render synchronously after `preloadOnDemand()` (testing/render-app.tsx).
 */
const preloaders: (() => Promise<unknown>)[] = [];

export interface OnDemandModule<T> {
  /** The module once loaded. */
  loaded(): T | undefined;
  /** Loads it (once; again after a failure: a new deployment, the network). */
  load(): Promise<T>;
}

export function onDemandModule<T>(importer: () => Promise<T>): OnDemandModule<T> {
  let module: T | undefined;
  let pending: Promise<T> | undefined;
  const load = () =>
    (pending ??= importer().then(
      (loaded) => (module = loaded),
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    ));
  preloaders.push(load);
  return { loaded: () => module, load };
}

/** A screen in a chunk of its own; `preload` fetches it before it renders (routes.tsx). */
export type LazyScreen = ComponentType & { preload: () => Promise<unknown> };

/** While the chunk arrives the nearest <Suspense> shows 'Chargement…' (route-loading.tsx). */
export function lazyScreen(importer: () => Promise<ComponentType>): LazyScreen {
  const screen = onDemandModule(importer);
  function LazyScreen() {
    const Screen = screen.loaded() ?? use(screen.load());
    return <Screen />;
  }
  return Object.assign(LazyScreen, { preload: screen.load });
}

/** The module when `wanted`, loaded in the background the first time (undefined until then, or if it fails). */
export function useOnDemandModule<T>(module: OnDemandModule<T>, wanted: boolean): T | undefined {
  const [, setLoaded] = useState(false);
  const current = module.loaded();
  useEffect(() => {
    if (!wanted || current) return;
    let live = true;
    module.load().then(
      () => live && setLoaded(true),
      () => undefined, // retried on the next render that wants it
    );
    return () => {
      live = false;
    };
  }, [module, wanted, current]);
  return wanted ? current : undefined;
}

/** Loads everything declared on demand (tests, before rendering). */
export function preloadOnDemand(): Promise<unknown> {
  return Promise.all(preloaders.map((preload) => preload()));
}
