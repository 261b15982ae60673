"""agentwarrant: an executable reference model for authorizing what LLM agents do.

Systems live in sub-packages (see ../DESIGN.md in the shared folder and README.md):
``monitor`` (Agenra run-time monitor), ``revision`` (client preservation), ``search``
(bounded analysis), ``edits`` (execution-edit checking), ``admission`` (admission protocols),
``oracle`` (clients for independent implementations).
"""

__version__ = "0.1.0"
