"""Execute the exploration notebook against this run's tables (nbclient), keep the executed copy."""
import os
import sys

import nbformat
from nbclient import NotebookClient

sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
nb = nbformat.read(sm.params.notebook, as_version=4)
NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": os.getcwd()}}).execute()
nbformat.write(nb, sm.output[0])
