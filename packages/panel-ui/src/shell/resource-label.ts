import type { Panel } from '@panel/core';

/** A resource as the sidebar and the grant matrices name it: "Blog posts" for `blog_posts` (the route key is plural). */
export interface ResourceLabel {
  readonly routeKey: string;
  readonly label: string;
}

/** The panel's resources, labelled from their (plural) route keys, in the panel's order. */
export function resourceLabels(panel: Panel): ResourceLabel[] {
  return [...panel.resources.values()].map(({ naming }) => {
    const words = naming.routeKey.replace(/_/g, ' ');
    return { routeKey: naming.routeKey, label: words.charAt(0).toUpperCase() + words.slice(1) };
  });
}
