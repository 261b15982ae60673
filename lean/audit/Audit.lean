import AgentWarrant
/-! The proof audit (`make lean` runs it through model/oracle/audit.py): the axioms of every
main theorem. The expected list lives in model/oracle/audit.py; a theorem that depended on
`sorryAx` (an admitted proof) or on an unexpected axiom fails the audit. -/
#print axioms AgentWarrant.Edits.resolveDeterministic
#print axioms AgentWarrant.Edits.resolveLength
#print axioms AgentWarrant.Edits.resolveRaw
#print axioms AgentWarrant.Edits.resolveAppend
#print axioms AgentWarrant.Edits.phiMonotone
#print axioms AgentWarrant.Edits.phiDeflationary
#print axioms AgentWarrant.Edits.iterPostFixed
#print axioms AgentWarrant.Edits.iterGreatest
#print axioms AgentWarrant.Edits.acceptsIff
#print axioms AgentWarrant.Edits.acceptsLargest
#print axioms AgentWarrant.Edits.postFixedIffClosed
#print axioms AgentWarrant.Edits.lemma4
#print axioms AgentWarrant.Monitor.joinComm
#print axioms AgentWarrant.Monitor.joinAssoc
#print axioms AgentWarrant.Monitor.joinIdem
#print axioms AgentWarrant.Monitor.joinBot
#print axioms AgentWarrant.Monitor.allocDeterministic
#print axioms AgentWarrant.Monitor.allocBothAllOrNothing
#print axioms AgentWarrant.Monitor.allocAppend
#print axioms AgentWarrant.Monitor.allocExt
#print axioms AgentWarrant.Monitor.stepOnlyAllowChanges
#print axioms AgentWarrant.Monitor.stepAllowAppends
#print axioms AgentWarrant.Monitor.Alternatives.twoGrantFeasible
#print axioms AgentWarrant.Monitor.Alternatives.twoGrantObstruction
#print axioms AgentWarrant.Monitor.Alternatives.firstFitFailsAB
#print axioms AgentWarrant.Monitor.Alternatives.firstFitCompletesAC
#print axioms AgentWarrant.Monitor.Alternatives.firstFitSwappedFailsAC
#print axioms AgentWarrant.Monitor.Run.stepEquivariant
#print axioms AgentWarrant.Monitor.Run.stepUpToRenaming
#print axioms AgentWarrant.Monitor.Run.stepTotal
#print axioms AgentWarrant.Monitor.Run.decideAllow
#print axioms AgentWarrant.Monitor.Run.allocCharged
#print axioms AgentWarrant.Monitor.Run.stepWithinUser
#print axioms AgentWarrant.Monitor.Run.stepWithinApp
#print axioms AgentWarrant.Monitor.Run.runWithin
#print axioms AgentWarrant.Monitor.Run.stepNonAllowSame
#print axioms AgentWarrant.Monitor.Run.runOnlyAllowChanges
#print axioms AgentWarrant.Monitor.Run.runAdmittedPassed
