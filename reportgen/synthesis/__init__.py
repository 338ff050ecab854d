"""Cross-method synthesis: what the analyses conclude together, and where they disagree.

Reads the analyses' result tables (never the data) and produces one
:class:`~reportgen.synthesis.summary.SynthesisResult`: every ranking the analyses produce, the
verdict matrix, Kendall's τ between rankings, the pairs of algorithms whose order flips, and
rule-generated executive findings.
"""
