/**
 * A lazily loaded screen that can be fetched before React's first render. React 19 holds back the
 * reveal of suspended content until 300 ms after a fallback was shown, so a first screen that
 * suspends costs those 300 ms even when its chunk arrives in 50; main.tsx preloads the current
 * route's chunk and the first render then has nothing to wait for.
 */
import { createElement, lazy, type ComponentType } from 'react';

export type Preloadable<P extends object> = ComponentType<P> & { preload(): Promise<void> };

export function preloadable<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): Preloadable<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const fetchModule = () =>
    (loading ??= load().then((module) => {
      loaded = module.default;
      return module;
    }));
  const Lazy = lazy(fetchModule);
  const Screen = (props: P) => (loaded ? createElement(loaded, props) : createElement(Lazy as unknown as ComponentType<P>, props));
  Screen.preload = () => fetchModule().then(() => undefined);
  return Screen;
}
