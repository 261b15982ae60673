import AgentWarrant.Spec.Revision.Closure
import AgentWarrant.Spec.Monitor.Full
import AgentWarrant.Spec.Monitor.Ledger
import AgentWarrant.Spec.Monitor.Step
/-! The closure check's units read off the whole monitor (Agenra Sections 1 and 7.1).

A call of the whole monitor, at a state, with its prepared effect units `es`, gives one unit of the
closure check per effect unit `e`: on each of the four lists (old user, old application, new user,
new application) a grant's bit is whether it matches that effect unit (`grantMatches`, which reads
the state's bindings and invalid slots and the call's arguments), and the unit's satisfied
requirements are the state's. A list's entries keep of each grant what first-fit reads besides the
match: allow or deny, quota, requirement. The closure check's usage vectors are the two lists'
counters, user list first. A per-list certificate speaks of one list on each side (`cwUnitL`).
Choices where the source is silent: a call with several effect units is the client of its units in
effect order (the monitor's first-fit also serves them in that order, with tentative reservations). -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Revision

/-- What first-fit reads of a grant besides its match. -/
def cwEntry (g : Grant) : Closure.LEntry := ⟨g.allow, g.quota, g.requires⟩

def cwEntries (gs : List Grant) : List Closure.LEntry := List.map cwEntry gs

/-- Each grant's match bit for effect unit `e` of a call with arguments `args` at state `s`. -/
def cwBits (s : State) (args : List (String × Json)) (es : List Effect) (e : Nat) (gs : List Grant) : List Bool :=
  List.map (fun g => hit (List.map (grantMatches s args g) es) e) gs

/-- The closure check's unit of effect unit `e` of a call, on the old lists `p` and the new `u'`, `a'`. -/
def cwUnit (p : Policy) (u' a' : List Grant) (s : State) (args : List (String × Json)) (es : List Effect)
    (e : Nat) : Closure.Unit' :=
  ⟨[cwBits s args es e p.user, cwBits s args es e p.app], [cwBits s args es e u', cwBits s args es e a'], s.satisfied⟩

/-- A call's units, one per effect unit, in the order first-fit serves them. -/
def cwUnits (p : Policy) (u' a' : List Grant) (s : State) (args : List (String × Json)) (es : List Effect) :
    List Closure.Unit' :=
  List.map (cwUnit p u' a' s args es) (range 0 (List.length es))

/-- A per-list certificate's unit of effect unit `e`: the old list `gs` and its revision `gs'` only. -/
def cwUnitL (gs gs' : List Grant) (s : State) (args : List (String × Json)) (es : List Effect) (e : Nat) :
    Closure.Unit' :=
  ⟨[cwBits s args es e gs], [cwBits s args es e gs'], s.satisfied⟩

/-- A call's units for a per-list certificate of `gs` and `gs'`. -/
def cwUnitsL (gs gs' : List Grant) (s : State) (args : List (String × Json)) (es : List Effect) : List Closure.Unit' :=
  List.map (cwUnitL gs gs' s args es) (range 0 (List.length es))

/-- The closure check's lists: user list first, then the application list. -/
def cwLists (user app : List Grant) : List (List Closure.LEntry) := [cwEntries user, cwEntries app]

end AgentWarrant.Monitor.Full
