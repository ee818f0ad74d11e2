"""Opening a notebook in JupyterLab leaves it unmodified: the stored notebooks name their kernel as the installed
kernel names itself (tools/notebooks.py stores it), so Lab rewrites no metadata when the kernel starts, the tab asks
nobody to save, and a student's copy shows no diff they did not make.

Every notebook of both editions is opened in one JupyterLab page, its kernel started and left to settle, and the
document model asked whether it is dirty.
"""

from __future__ import annotations

import pytest

from widget_driver import notebook_id, notebooks, served_name

NOTEBOOKS = notebooks()

_OPEN_AND_SETTLE = """async (path) => {
  const app = window.jupyterapp;
  const widget = await app.commands.execute('docmanager:open', {path, factory: 'Notebook'});
  await widget.context.ready;
  await widget.sessionContext.ready;
  const deadline = Date.now() + 90000;
  let kernel = null;
  while (Date.now() < deadline) {
    kernel = widget.sessionContext.session && widget.sessionContext.session.kernel;
    if (kernel && kernel.connectionStatus === 'connected' && kernel.status === 'idle') break;
    await new Promise((r) => setTimeout(r, 200));
  }
  if (kernel) await kernel.info;
  await new Promise((r) => setTimeout(r, 1500));  // Lab writes the kernel's metadata once it has its info
  const result = {
    kernel: kernel ? kernel.status : 'no kernel',
    dirty: widget.context.model.dirty,
    tabDirty: widget.title.className.includes('jp-mod-dirty'),
    kernelspec: widget.context.model.getMetadata('kernelspec'),
  };
  await widget.sessionContext.shutdown();
  widget.dispose();
  return result;
}"""


@pytest.mark.browser
def test_opening_a_notebook_in_lab_does_not_mark_it_modified(lab_server, page):
    page.goto(lab_server.address("/lab?reset"))
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell.currentWidget", timeout=90_000)
    page.wait_for_function("() => window.jupyterapp.serviceManager.kernelspecs.specs !== null", timeout=90_000)
    modified = {}
    for path in NOTEBOOKS:
        state = page.evaluate(_OPEN_AND_SETTLE, f"notebooks/{served_name(path)}")
        assert state["kernel"] == "idle", f"{notebook_id(path)}: kernel {state['kernel']}"
        if state["dirty"] or state["tabDirty"]:
            modified[notebook_id(path)] = state["kernelspec"]
    assert not modified, f"notebooks Lab marks modified on opening (kernelspec after): {modified}"
