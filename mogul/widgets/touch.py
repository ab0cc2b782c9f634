"""Controls a fingertip can hit: the kit's widgets grow their buttons, inputs, sliders and
checkboxes to 44 px on a phone (the size touch guidelines ask for), from ipywidgets' 28 px."""

from __future__ import annotations

import ipywidgets as w

__all__ = ["TOUCH", "touch_style"]

TOUCH = "mogul-touch"
"""The class of a widget whose controls grow to touch size on a phone (``touch_style``)."""

TOUCH_CSS = f"""<style>
@media (max-width: 700px), (pointer: coarse) {{
  .{TOUCH} {{ --jp-widgets-inline-height: 44px; }}
  .{TOUCH} .widget-html-content {{ line-height: 1.4; }}  /* text keeps its own spacing */
  .{TOUCH} .widget-checkbox label {{ min-width: 44px; align-items: center; }}
  .{TOUCH} .widget-checkbox input[type="checkbox"] {{ width: 24px; height: 24px; }}
}}
</style>"""


def touch_style(widget: w.Box) -> w.HTML:
    """Make ``widget``'s buttons, inputs, sliders and checkboxes at least 44 px tall on a phone
    (a narrow or touch screen; the size guidelines ask for a fingertip): add the ``TOUCH``
    class and return the style element to put among its children, last (so the text a
    notebook saves of the widget stays as it was). The controls take their height from
    ipywidgets' ``--jp-widgets-inline-height`` (28 px), which the style raises; a checkbox's
    target is its label (a tap on the words ticks it)."""
    widget.add_class(TOUCH)
    return w.HTML(TOUCH_CSS, layout=w.Layout(display="none"))
