import AgentWarrant.Spec.Edits.TreeContract
/-! Facts about `⟦T⟧` on the flat tree (`treeContract`, `Spec/Edits/TreeContract.lean`; *When Can Agents
Safely Checkpoint, Fork, Restore, and Merge?*, Sections IV-A and IV-B1): a one-leaf tree's contract is
its leaf's remaining contract `Γ_b / raw(χ_b)` (`treeContractLeaf`), and that contract's outcomes by
their calls are the runtime's residual, the outcomes a Checkpoint stores (`tcLeafEvents`); a node's
contract is its children's, unioned for a choice (only the selected arm once one is selected),
multiplied for a parallel group or join barrier, multiplied in order for a sequence (`tcAtChoice`,
`tcAtPar`, `tcAtJoin`, `tcAtSeq`); on two leaves these read as the paper's union and pairwise products
(`treeContractChoice2`, `treeContractSelected2`, `treeContractPar2`, `treeContractSeq2`); and every call
of every outcome of `⟦T⟧` is a remaining call of one of the tree's leaves (`treeContractCalls`, by
induction on the fuel through `tcNodeCases`, `tcFoldCalls`, `tcProdMem`, `tcLeafCalls`). -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

/-- A one-leaf tree's contract is its leaf's remaining contract. -/
theorem treeContractLeaf (b s : Nat) (g : List Pomset) (d : List Nat) :
    treeContract [⟨b, 0, 0, 0, s, g, d⟩] = tcLeaf ⟨b, 0, 0, 0, s, g, d⟩ := rfl

theorem tcRestEvents (done : List Nat) :
    ∀ (l : List Pomset), (l.map (tcRest done)).map Pomset.events = l.map (fun p => filt (fun e => !memN e done) p.events)
  | [] => rfl
  | p :: l => by simp [List.map, tcRestEvents done l]; rfl

/-- `⟦b:𝒞⟧`'s outcomes, by their calls, are the leaf's residual `restOuts` (what the runtime's currency
and Checkpoint read). -/
theorem tcLeafEvents (l : TNode) : (tcLeaf l).map Pomset.events = restOuts l :=
  tcRestEvents l.done (filt (compatP l.done) l.gamma)

/-- A choice's contract is the union of its enabled arms' contracts. -/
theorem tcAtChoice {t : Tree} {j f : Nat} {n : TNode} (h : nodeAt t j = some n) (hk : n.kind = 1) :
    tcAt (f + 1) t j = concatL ((tcKids t j n).map (tcAt f t)) := by
  simp only [tcAt]; rw [h]; simp only [tcNode]; rw [hk]; rfl

/-- A parallel group's contract is the product of its parts'. -/
theorem tcAtPar {t : Tree} {j f : Nat} {n : TNode} (h : nodeAt t j = some n) (hk : n.kind = 2) :
    tcAt (f + 1) t j = tcFold false [tcEmpty] ((tcKids t j n).map (tcAt f t)) := by
  simp only [tcAt]; rw [h]; simp only [tcNode]; rw [hk]; rfl

/-- A join barrier's contract is the product of its parts', as a parallel group's. -/
theorem tcAtJoin {t : Tree} {j f : Nat} {n : TNode} (h : nodeAt t j = some n) (hk : n.kind = 3) :
    tcAt (f + 1) t j = tcFold false [tcEmpty] ((tcKids t j n).map (tcAt f t)) := by
  simp only [tcAt]; rw [h]; simp only [tcNode]; rw [hk]; rfl

/-- A sequence's contract is the ordered product of its parts'. -/
theorem tcAtSeq {t : Tree} {j f : Nat} {n : TNode} (h : nodeAt t j = some n) (hk : n.kind = 4) :
    tcAt (f + 1) t j = tcFold true [tcEmpty] ((tcKids t j n).map (tcAt f t)) := by
  simp only [tcAt]; rw [h]; simp only [tcNode]; rw [hk]; rfl

/-- An open choice over two leaves: the union of the arms' outcomes. -/
theorem treeContractChoice2 (g a b sa sb : Nat) (ga gb : List Pomset) (da db : List Nat) :
    treeContract [⟨g, 1, 0, 0, 0, [], []⟩, ⟨a, 0, 1, 0, sa, ga, da⟩, ⟨b, 0, 1, 1, sb, gb, db⟩] =
      tcLeaf ⟨a, 0, 1, 0, sa, ga, da⟩ ++ (tcLeaf ⟨b, 0, 1, 1, sb, gb, db⟩ ++ []) := rfl

/-- A choice that selected its second arm: that arm's outcomes only. -/
theorem treeContractSelected2 (g a b sa sb : Nat) (ga gb : List Pomset) (da db : List Nat) :
    treeContract [⟨g, 1, 0, 0, 2, [], []⟩, ⟨a, 0, 1, 0, sa, ga, da⟩, ⟨b, 0, 1, 1, sb, gb, db⟩] =
      tcLeaf ⟨b, 0, 1, 1, sb, gb, db⟩ ++ [] := rfl

/-- A parallel group over two leaves: every pair of the parts' outcomes, merged. -/
theorem treeContractPar2 (g a b sa sb : Nat) (ga gb : List Pomset) (da db : List Nat) :
    treeContract [⟨g, 2, 0, 0, 0, [], []⟩, ⟨a, 0, 1, 0, sa, ga, da⟩, ⟨b, 0, 1, 1, sb, gb, db⟩] =
      tcProd false (tcProd false [tcEmpty] (tcLeaf ⟨a, 0, 1, 0, sa, ga, da⟩)) (tcLeaf ⟨b, 0, 1, 1, sb, gb, db⟩) := rfl

/-- A sequence of two leaves: every pair of the parts' outcomes, merged with the first's calls before
the second's. -/
theorem treeContractSeq2 (a b sa sb : Nat) (ga gb : List Pomset) (da db : List Nat) :
    treeContract [⟨0, 4, 0, 0, 0, [], []⟩, ⟨a, 0, 1, 0, sa, ga, da⟩, ⟨b, 0, 1, 1, sb, gb, db⟩] =
      tcProd true (tcProd true [tcEmpty] (tcLeaf ⟨a, 0, 1, 0, sa, ga, da⟩)) (tcLeaf ⟨b, 0, 1, 1, sb, gb, db⟩) := rfl

/-- Merging in sequence orders every call of the first outcome before every call of the second. -/
theorem tcJoinSeqOrder (a b : Pomset) : (tcJoin true a b).order = a.order ++ (b.order ++ cross a.events b.events) := rfl

theorem tcJoinEvents (o : Bool) (a b : Pomset) : (tcJoin o a b).events = a.events ++ b.events := rfl

-- the calls of `⟦T⟧` ---------------------------------------------------------------------------------------

theorem tcNthMem : ∀ {t : Tree} {i : Nat} {n : TNode}, nthNode t i = some n → n ∈ t
  | [], _, _, h => Option.noConfusion h
  | a :: t, 0, n, h => by
    have e : a = n := Option.some.inj h
    rw [e]; exact Mem.head _
  | a :: t, i + 1, n, h => Mem.tail _ (tcNthMem (t := t) (i := i) h)

theorem tcNodeMem {t : Tree} : ∀ {j : Nat} {n : TNode}, nodeAt t j = some n → n ∈ t
  | 0, _, h => Option.noConfusion h
  | _ + 1, _, h => tcNthMem h

theorem tcLeafCalls {l : TNode} {p : Pomset} {x : Nat} (hp : p ∈ tcLeaf l) (hx : x ∈ p.events) :
    x ∈ restCalls l := by
  have h1 : p.events ∈ restOuts l := by rw [← tcLeafEvents l]; exact mapMem hp
  exact concatMem h1 hx

theorem tcProdMem {o : Bool} {A B : List Pomset} {p : Pomset} (h : p ∈ tcProd o A B) :
    ∃ a b, a ∈ A ∧ b ∈ B ∧ p = tcJoin o a b := by
  have ⟨l, hl, hp⟩ := memConcat h
  have ⟨a, ha, e⟩ := memMap hl
  rw [e] at hp
  have ⟨b, hb, e2⟩ := memMap hp
  exact ⟨a, b, ha, hb, e2⟩

/-- A call of a folded product's outcome is a call of an outcome of the start or of a part. -/
theorem tcFoldCalls {o : Bool} {x : Nat} : ∀ {Bs : List (List Pomset)} {acc : List Pomset} {p : Pomset},
    p ∈ tcFold o acc Bs → x ∈ p.events →
    (∃ a, a ∈ acc ∧ x ∈ a.events) ∨ (∃ B b, B ∈ Bs ∧ b ∈ B ∧ x ∈ b.events)
  | [], _, p, h, hx => Or.inl ⟨p, h, hx⟩
  | B :: Bs, acc, p, h, hx => match tcFoldCalls (Bs := Bs) (acc := tcProd o acc B) h hx with
    | Or.inr ⟨B', b, hB, hb, hxb⟩ => Or.inr ⟨B', b, Mem.tail _ hB, hb, hxb⟩
    | Or.inl ⟨a, ha, hxa⟩ =>
      match tcProdMem ha with
      | ⟨a', b, ha', hb, e⟩ =>
        have hx2 : x ∈ a'.events ++ b.events := by rw [e] at hxa; exact hxa
        match memAppend hx2 with
        | Or.inl h1 => Or.inl ⟨a', ha', h1⟩
        | Or.inr h2 => Or.inr ⟨B, b, Mem.head _, hb, h2⟩

/-- The node's contract is its leaf's, the union of its children's, or a folded product of them. -/
theorem tcNodeCases (r : Nat → List Pomset) (t : Tree) (j : Nat) (n : TNode) (p : Pomset)
    (h : p ∈ tcNode r t j n) :
    (n.kind = 0 ∧ p ∈ tcLeaf n) ∨ p ∈ concatL ((tcKids t j n).map r) ∨
    p ∈ tcFold true [tcEmpty] ((tcKids t j n).map r) ∨ p ∈ tcFold false [tcEmpty] ((tcKids t j n).map r) := by
  cases n with
  | mk name kind parent pos sel gamma done =>
    cases kind with
    | zero => exact Or.inl ⟨rfl, h⟩
    | succ k => cases k with
      | zero => exact Or.inr (Or.inl h)
      | succ k => cases k with
        | zero => exact Or.inr (Or.inr (Or.inr h))
        | succ k => cases k with
          | zero => exact Or.inr (Or.inr (Or.inr h))
          | succ k => cases k with
            | zero => exact Or.inr (Or.inr (Or.inl h))
            | succ k => exact Or.inr (Or.inr (Or.inr h))

/-- A call of a folded product of children's contracts is a call of a child's contract. -/
theorem tcFoldKids {o : Bool} {r : Nat → List Pomset} {ks : List Nat} {p : Pomset} {x : Nat}
    (h : p ∈ tcFold o [tcEmpty] (ks.map r)) (hx : x ∈ p.events) : ∃ i q, i ∈ ks ∧ q ∈ r i ∧ x ∈ q.events :=
  match tcFoldCalls h hx with
  | Or.inl ⟨a, ha, hxa⟩ => by
    have e : a = tcEmpty := memSingle ha
    rw [e] at hxa; exact absurd hxa notMemNil
  | Or.inr ⟨B, b, hB, hb, hxb⟩ => match memMap hB with
    | ⟨i, hi, e⟩ => by rw [e] at hb; exact ⟨i, b, hi, hb, hxb⟩

/-- Every call of every outcome of `⟦T⟧` at any position is a remaining call of a leaf of the tree. -/
theorem tcAtCalls {x : Nat} : ∀ {f : Nat} {t : Tree} {j : Nat} {p : Pomset}, p ∈ tcAt f t j → x ∈ p.events →
    ∃ l, l ∈ t ∧ l.kind = 0 ∧ x ∈ restCalls l
  | 0, _, _, _, h, _ => absurd h notMemNil
  | f + 1, t, j, p, h, hx => by
    cases hn : nodeAt t j with
    | none =>
      have e : tcAt (f + 1) t j = [] := by simp only [tcAt]; rw [hn]
      rw [e] at h; exact absurd h notMemNil
    | some n =>
      have e : tcAt (f + 1) t j = tcNode (tcAt f t) t j n := by simp only [tcAt]; rw [hn]; rfl
      rw [e] at h
      match tcNodeCases (tcAt f t) t j n p h with
      | Or.inl ⟨hk, hl⟩ => exact ⟨n, tcNodeMem hn, hk, tcLeafCalls hl hx⟩
      | Or.inr (Or.inl hc) =>
        have ⟨l, hl, hp⟩ := memConcat hc
        have ⟨i, _, e2⟩ := memMap hl
        rw [e2] at hp
        exact tcAtCalls hp hx
      | Or.inr (Or.inr (Or.inl hs)) =>
        have ⟨i, q, _, hq, hxq⟩ := tcFoldKids hs hx
        exact tcAtCalls hq hxq
      | Or.inr (Or.inr (Or.inr hs)) =>
        have ⟨i, q, _, hq, hxq⟩ := tcFoldKids hs hx
        exact tcAtCalls hq hxq

/-- The calls of `⟦T⟧` are the leaves' remaining calls: every call of every outcome of the tree's
contract is a call of the remaining contract `Γ_b / raw(χ_b)` of one of its leaves. -/
theorem treeContractCalls {t : Tree} {p : Pomset} {x : Nat} (h : p ∈ treeContract t) (hx : x ∈ p.events) :
    ∃ l, l ∈ t ∧ l.kind = 0 ∧ x ∈ restCalls l := tcAtCalls h hx

end AgentWarrant.Edits.Machine
