// The front end of a LiveFigureWidget. anywidget awaits `initialize` inside the model's 2 s
// start budget, so it only starts plotly's import and returns; `render` waits for it. The
// import is cached on the page by a hash of the bundle, so each page compiles plotly.js once.
// Plotly's own `initialize` (which keeps the model's `_widget_data` / `_widget_layout` up
// to date for views created later) runs as soon as the bundle is there; until then, and anyway,
// LiveFigureWidget stores the whole current figure as state after each update.
const PAGE_CACHE = "__mogulPlotlyWidget";

function plotlyWidgetModule(model) {
  const cache = (globalThis[PAGE_CACHE] ??= new Map());
  const id = model.get("_plotly_esm_id");
  if (!cache.has(id)) {
    // A notebook's saved widget state leaves the bundle out (mogul.widgets.saved_state): until the
    // notebook runs, such a chart says so instead of loading plotly.
    if (!model.get("_plotly_esm")) return null;
    const url = URL.createObjectURL(
      new Blob([model.get("_plotly_esm")], { type: "text/javascript" }),
    );
    const loading = import(/* webpackIgnore: true */ url);
    loading.finally(() => URL.revokeObjectURL(url)).catch(() => {});
    cache.set(id, loading);
  }
  return cache.get(id);
}

export default () => {
  let plotly; // this model's plotly widget, once the bundle is loaded
  return {
    initialize({ model }) {
      const loading = plotlyWidgetModule(model);
      if (!loading) return;
      plotly = loading.then(async (mod) => {
        const widget = typeof mod.default === "function" ? await mod.default() : mod.default;
        await widget.initialize?.({ model });
        return widget;
      });
      plotly.catch((error) => console.error("[mogul] plotly's widget code did not load", error));
    },
    async render({ model, el }) {
      if (!plotly) {
        el.textContent = "Run the notebook (Run > Run All Cells) to draw this chart.";
        el.style.cssText = "padding: 8px; color: #555";
        return;
      }
      const widget = await plotly;
      const remove = await widget.render({ model, el });
      // Plotly's view draws at the width its box has while it is made (700 px when it is not
      // in the page yet) and never again: follow the box as the page lays it out, a sidebar
      // opens or a phone turns. The figure has no width of its own (autosize), and with
      // "responsive" plotly keeps a handler that redraws it at its box's size.
      const fit = () => {
        const width = el.clientWidth;
        const drawn = el._fullLayout && el._fullLayout.width;
        if (!(width > 0 && drawn && Math.abs(drawn - width) > 1)) return;
        // A height set from Python (a chart growing with its bars) reaches plotly as a
        // relayout, and plotly then pins the width it had ("no autosize with a fixed height"),
        // so the chart would never follow its box again: a live figure has no width of its own.
        if (el.layout?.width) {
          delete el.layout.width;
          el.layout.autosize = true;
        }
        el._responsiveChartHandler?.();
      };
      const observer = new ResizeObserver(() => requestAnimationFrame(fit));
      observer.observe(el);
      // A chart scrolled out of view is not laid out again (Lab skips cells off screen), so
      // a sidebar or a phone turning meanwhile reaches no resize observer: fit on coming back.
      const seen = new IntersectionObserver((entries) => {
        if (entries.some((entry) => entry.isIntersecting)) requestAnimationFrame(fit);
      });
      seen.observe(el);
      const drawn = (event) => event.detail?.element === el && fit();
      document.addEventListener("plotlywidget-after-render", drawn);
      return () => {
        observer.disconnect();
        seen.disconnect();
        document.removeEventListener("plotlywidget-after-render", drawn);
        remove?.();
      };
    },
  };
};
