import type { Core, CytoscapeOptions } from 'cytoscape';
import { useEffect, useRef, useState } from 'react';
import type { AttackPath } from '../attack-paths';
import { PATH_GRAPH_STYLE } from '../graph-style';
import { columnsOf, elementsOf, layoutFor } from '../path-layout';
import { PathLegend } from './PathLegend';

// One attack path drawn with Cytoscape, left to right from where the attacker starts. The canvas is a picture to
// assistive technology (role="img" with a label); the list of steps below it (PathSteps) is its text equivalent.

/**
 * Cytoscape adds a <style> element for its one rule (its container is position: relative), which the dashboard's
 * Content-Security-Policy refuses, as a console error. styles.css gives .path-graph that rule; an element with the
 * id Cytoscape looks for stops it adding its own.
 */
function claimCytoscapeStylesheet(): void {
  const id = '__________cytoscape_stylesheet';
  if (document.getElementById(id)) return;
  const marker = document.createElement('meta');
  marker.id = id;
  marker.name = 'cytoscape-stylesheet';
  document.head.appendChild(marker);
}

const GRAPH_OPTIONS: CytoscapeOptions = {
  style: PATH_GRAPH_STYLE,
  minZoom: 0.3,
  maxZoom: 1.2,
  // The wheel scrolls the page, not the graph; dragging still pans it and moves nodes apart.
  userZoomingEnabled: false,
  boxSelectionEnabled: false,
  autounselectify: true,
};

/** Where the drawing is; once drawn, what Cytoscape holds (exposed on the container, for tests and tools). */
type DrawState = { state: 'loading' | 'failed' } | { state: 'drawn'; nodes: number; edges: number };

export function PathGraph({ path, stepsId }: { path: AttackPath; stepsId: string }) {
  const container = useRef<HTMLDivElement>(null);
  const [drawing, setDrawing] = useState<DrawState>({ state: 'loading' });
  useEffect(() => {
    const element = container.current;
    if (!element) return undefined;
    let cy: Core | undefined;
    let gone = false;
    setDrawing({ state: 'loading' });
    // Cytoscape is loaded with the first graph: the rest of the dashboard does without its weight.
    import('cytoscape')
      .then(({ default: cytoscape }) => {
        if (gone) return;
        claimCytoscapeStylesheet();
        const canvas = { width: element.clientWidth, height: element.clientHeight };
        cy = cytoscape({
          ...GRAPH_OPTIONS,
          container: element,
          elements: elementsOf(path),
          layout: layoutFor(path, canvas),
        });
        setDrawing({ state: 'drawn', nodes: cy.nodes().length, edges: cy.edges().length });
      })
      .catch(() => !gone && setDrawing({ state: 'failed' }));
    return () => {
      gone = true;
      cy?.destroy();
    };
  }, [path]);
  const source = path.nodes.find((n) => n.id === path.source)?.label ?? path.source;
  const target = path.nodes.find((n) => n.id === path.target)?.label ?? path.target;
  return (
    <figure className="path-figure">
      <div
        ref={container}
        className={`path-graph rows-${Math.min(Math.max(...columnsOf(path), 1), 3)}`}
        role="img"
        aria-label={`Graph of the attack path from ${source} to ${target}: ${path.nodes.length} nodes, ${path.edges.length} steps, listed below.`}
        aria-describedby={stepsId}
        data-testid="path-graph"
        data-state={drawing.state}
        data-nodes={drawing.state === 'drawn' ? drawing.nodes : undefined}
        data-edges={drawing.state === 'drawn' ? drawing.edges : undefined}
      />
      {drawing.state === 'loading' && <p className="loading">Drawing the path…</p>}
      {drawing.state === 'failed' && (
        <p className="muted">The graph could not be drawn here; every step is listed below.</p>
      )}
      <PathLegend kinds={[...new Set(path.nodes.map((n) => n.kind))]} />
    </figure>
  );
}
