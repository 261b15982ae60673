import AgentWarrant.Spec.Edits.Check
/-! The rejection-proof verifier (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Section V-C3, Appendix A-B), over the
checker's finite instances.

A proof `C_fp = (B̂₀, E₀, …, E_k)` lists the candidate family and, per round, the removed pairs,
each with a witness: a prefix `z` of its word and an outcome `o_miss ∈ Compat(z)` that no pair of
the current family `B̂_i` supports at `z`. The verifier accepts iff the listed family is `B̂₀` (as a
set), every round is nonempty with valid witnesses, every pair not removed is kept by `Φ̂` (so
`B̂_{i+1} = Φ̂(B̂_i)` exactly), and the last family is empty.
Choice where the paper is silent: the listed family and each round's removed pairs must be free of
duplicates (as the Python verifier requires), so a proof is a list of distinct pairs. -/
namespace AgentWarrant.Edits
open AgentWarrant

structure Removal where
  cand : Cand
  pre : Word
  miss : Nat

def andB : Bool → Bool → Bool
  | true, b => b
  | false, _ => false

def orB : Bool → Bool → Bool
  | true, _ => true
  | false, b => b

def notB : Bool → Bool
  | true => false
  | false => true

def isNil : List α → Bool
  | [] => true
  | _ :: _ => false

def memC (c : Cand) (B : List Cand) : Bool := anyB (fun d => decide (d = c)) B

def subB (S B : List Cand) : Bool := allB (fun c => memC c B) S

def nodupC : List Cand → Bool
  | [] => true
  | c :: l => andB (notB (memC c l)) (nodupC l)

def witnessOk (i : Inst) (B : List Cand) (r : Removal) : Bool :=
  andB (memC r.cand B) (andB (isPrefixB r.pre r.cand.2)
    (andB (anyB (fun o => Nat.beq o r.miss) (compat i r.pre)) (notB (supports B r.pre r.miss))))

def removedC (E : List Removal) : List Cand := List.map Removal.cand E

/-- `B̂_{i+1}`: the family without the pairs removed in round `i`. -/
def rest (B : List Cand) (E : List Removal) : List Cand := filt (fun c => notB (memC c (removedC E))) B

def verifyRounds (i : Inst) : List Cand → List (List Removal) → Bool
  | B, [] => isNil B
  | B, E :: Es => andB (andB (notB (isNil E)) (nodupC (removedC E))) (andB (allB (witnessOk i B) E)
      (andB (allB (fun c => orB (memC c (removedC E)) (keep i B c)) B) (verifyRounds i (rest B E) Es)))

def verifyProof (i : Inst) (family : List Cand) (rounds : List (List Removal)) : Bool :=
  andB (andB (nodupC family) (subB family (b0 i))) (andB (subB (b0 i) family) (verifyRounds i family rounds))

end AgentWarrant.Edits
