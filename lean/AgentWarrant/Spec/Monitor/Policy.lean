import AgentWarrant.Spec.Monitor.Json
import AgentWarrant.Spec.Monitor.Step
/-! The policy, the state `S = (M, L, τ, B, I, u_P, u_A)` and calls (Agenra Sections 4–6.1), as the
whole-monitor judgment reads them.

Labels are in the closed core's numbered form (`Spec/Monitor/Labels.lean`); flow rules and edge
propagations reuse the closed core's types. IDs are trace positions (record `d` is `trace[d]`),
as in the Python model. Permits bind the tool and the exact value identity of every argument: a
handle, a field path of a handle, or a literal JSON value. -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant.Monitor

inductive ResRef where
  | const (v : Json)
  | arg (a : String)
  | listArg (a : String)

structure EffDecl where
  action : String
  res : ResRef

structure Tool where
  name : String
  operation : String
  source : String
  destination : String
  args : List String
  required : List String
  effects : List EffDecl

inductive Pat where
  | any
  | const (v : Json)
  | slot (s : String)
  | glob (g : String)

inductive Pred where
  | eq (path : List String) (v : Json)
  | oneOf (path : List String) (vs : List Json)
  | range (path : List String) (lo hi : Option JsonNumber)

structure Grant where
  allow : Bool
  action : String
  pat : Pat
  keys : Option (List String)
  preds : List Pred
  quota : Option Nat
  requires : Option String
  permit : Bool

structure Resolver where
  slot : String
  tool : String
  args : Json
  path : List String

structure Origin where
  name : String
  via : String
  argument : String
  producer : String
  preserving : List String

structure History where
  name : String
  lineage : Bool
  after : String
  require : String
  before : String

structure Node where
  name : String
  label : Label

structure Edge where
  name : String
  endpoints : List (String × String)
  prop : Option Transform

structure Agent where
  name : String
  ops : List String
  ceiling : Nat

/-- A flow rule as written (extensions beyond Agenra: `Spec/Monitor/Extensions.lean`): effect
0 allow, 1 deny, 2 pause; `argument` set for a request sink `TOOL(ARG)` (`destination` is the tool). -/
structure XFlow where
  effect : Nat
  operation : String
  destination : String
  argument : Option String
  guard : Guard

structure AudEff where
  action : String
  pat : Pat

/-- `audience NODE: ACTION(pattern), ...` (an extension beyond Agenra). -/
structure Audience where
  node : String
  effects : List AudEff

/-- `flows` are the rules the closed core's flow check reads (request sinks left out, a pause read as an
allow); `xflows` are every rule as written, read by the extensions beyond Agenra. -/
structure Policy where
  nodes : List Node
  edges : List Edge
  agents : List Agent
  tools : List Tool
  resolvers : List Resolver
  origins : List Origin
  flows : List Flow
  histories : List History
  user : List Grant
  app : List Grant
  xflows : List XFlow := []
  audiences : List Audience := []

structure Record where
  agent : String
  tool : String
  operation : String
  source : String
  destination : String
  parents : List Nat
  args : List (String × Json)
  label : Label
  ok : Bool

inductive Ident where
  | handle (d : Nat)
  | field (d : Nat) (path : String)
  | value (v : Json)

structure Permit where
  id : Nat
  tool : String
  ident : List (String × Ident)
  consumed : Bool

structure State where
  trace : List Record
  bindings : List (String × Json × Nat)
  invalid : List String
  usedUser : List Nat
  usedApp : List Nat
  satisfied : List String
  permits : List Permit

structure Call where
  agent : String
  tool : String
  args : List (String × Json)
  refs : List (String × Nat)
  refPaths : List (String × String)

structure Outcome where
  ok : Bool
  value : Json

-- small list helpers -------------------------------------------------------------------------

def memS (x : String) (l : List String) : Bool := l.any (fun y => y == x)

def nth? : List α → Nat → Option α
  | [], _ => none
  | a :: _, 0 => some a
  | _ :: l, n + 1 => nth? l n

/-- Insert keeping the list sorted by `key` (strings compare by code points, as in Python). -/
def insertBy (key : α → String) (x : α) : List α → List α
  | [] => [x]
  | y :: ys => if Decidable.decide (key x < key y) then x :: y :: ys else y :: insertBy key x ys

def sortBy (key : α → String) : List α → List α
  | [] => []
  | x :: xs => insertBy key x (sortBy key xs)

def State.record? (s : State) (d : Nat) : Option Record := nth? s.trace d

def State.binding? (s : State) (slot : String) : Option Json :=
  match s.bindings.find? (fun b => b.1 == slot) with
  | some b => some b.2.1
  | none => none

/-- The call's ordered distinct parents `J`: by argument name, first occurrence wins. -/
def Call.parents (c : Call) : List Nat :=
  let sorted := sortBy (fun r => r.1) c.refs
  sorted.foldl (fun acc r => if acc.any (fun d => d == r.2) then acc else acc ++ [r.2]) []

/-- The exact value identity of every argument, by argument name. -/
def Call.identity (c : Call) : List (String × Ident) :=
  (sortBy (fun p => p.1) c.args).map (fun p =>
    match c.refPaths.lookup p.1, c.refs.lookup p.1 with
    | some path, some d => (p.1, Ident.field d path)
    | _, some d => (p.1, Ident.handle d)
    | _, none => (p.1, Ident.value p.2))

def identEq : Ident → Ident → Bool
  | Ident.handle a, Ident.handle b => a == b
  | Ident.field a p, Ident.field b q => a == b && p == q
  | Ident.value v, Ident.value w => jeq v w
  | _, _ => false

def identsEq : List (String × Ident) → List (String × Ident) → Bool
  | [], [] => true
  | (n, i) :: xs, (m, j) :: ys => n == m && identEq i j && identsEq xs ys
  | _, _ => false

end AgentWarrant.Monitor.Full
