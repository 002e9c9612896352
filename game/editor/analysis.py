"""The editor's live analysis: what it asks of the worker (``worker.AnalysisRunner``: a coarse
grid while dragging, the full grid once the piece drops), the results it keeps, and the baseline
(the analysis of the map as last saved, that the panel compares against).

A part ``EditorScene`` owns: it writes ``live``, ``live_full``, ``baseline`` and ``coarse_at`` of
the editor's state (``state.py``) and nothing else.
"""
from __future__ import annotations


class Analysis:
    def __init__(self, state, runner):
        self.state = state
        self.runner = runner           # worker.AnalysisRunner

    def request(self, coarse: bool, mapfile=None) -> None:
        st = self.state
        self.runner.request(mapfile or st.doc.map, st.doc.stack.version, coarse)
        st.coarse_at = st.clock

    def request_baseline(self) -> None:
        doc = self.state.doc
        if doc.saved_map is doc.map:
            return                       # the live analysis of this very map will do
        self.runner.request(doc.saved_map, -doc.stack.saved_version - 1, False)

    def take(self, r) -> None:
        st = self.state
        stack = st.doc.stack
        if r.version < 0:
            if -r.version - 1 == stack.saved_version and not r.error:
                st.baseline = r
            return
        st.live = r
        if not r.coarse:
            st.live_full = r
            if r.version == stack.saved_version and not r.error and st.doc.saved_map == st.doc.map:
                st.baseline = r

    def poll(self) -> None:
        """Each frame: every result that has come in."""
        while True:
            r = self.runner.poll()
            if r is None:
                break
            self.take(r)

    def saved(self) -> None:
        """The map was saved: the newest full analysis is its baseline if it is of this version."""
        st = self.state
        full = st.live_full
        st.baseline = full if (full and full.version == st.doc.stack.version) else None
        if st.baseline is None:
            self.request_baseline()

    def forget(self) -> None:
        """Another document: nothing analysed of it yet."""
        st = self.state
        st.live = st.live_full = st.baseline = None
