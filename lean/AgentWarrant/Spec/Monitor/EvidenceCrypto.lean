/-! The signature arithmetic a signed approval rests on, computed in Lean rather than taken from Python:
SHA-512 (FIPS 180-4, on `UInt64` words), Ed25519 verification (RFC 8032, Section 5.1.7, with `Nat`
arithmetic modulo p = 2^255 - 19) and strict base64 decoding. Every definition is total (structural
recursion or fuel that the input's length bounds).

Choices, matching the verifier the project calls (Python `cryptography`, which runs OpenSSL's
`ossl_ed25519_verify`), where RFC 8032 leaves room:
- the check is cofactorless and compares bytes: R' = [S]B - [k]A is encoded and compared with the
  signature's first 32 bytes, so a non-canonical encoding of R never verifies;
- S must be below the group order L (non-canonical S is rejected, as RFC 8032 requires);
- the public key is decoded as OpenSSL does: the top bit is x's sign, the other 255 bits are y taken
  modulo p (a y in [p, 2^255) is not rejected), and x = 0 with the sign bit set stays x = 0;
- k = SHA-512(R || A || M) read little-endian modulo L, with A the key's bytes as given.
What is shown about these functions is their agreement with RFC 8032 and FIPS 180-4 on test vectors
and with the Python verifier on generated cases; nothing about the scheme's security. -/
namespace AgentWarrant.Evidence

/-- Byte strings as lists of numbers below 256. -/
abbrev Bytes := List Nat

-- SHA-512 ----------------------------------------------------------------------------------------

def sha512K : List UInt64 := [
  0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc, 0x3956c25bf348b538,
  0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118, 0xd807aa98a3030242, 0x12835b0145706fbe,
  0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2, 0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235,
  0xc19bf174cf692694, 0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65,
  0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5, 0x983e5152ee66dfab,
  0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4, 0xc6e00bf33da88fc2, 0xd5a79147930aa725,
  0x06ca6351e003826f, 0x142929670a0e6e70, 0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed,
  0x53380d139d95b3df, 0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
  0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30, 0xd192e819d6ef5218,
  0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8, 0x19a4c116b8d2d0c8, 0x1e376c085141ab53,
  0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8, 0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373,
  0x682e6ff3d6b2b8a3, 0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
  0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b, 0xca273eceea26619c,
  0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178, 0x06f067aa72176fba, 0x0a637dc5a2c898a6,
  0x113f9804bef90dae, 0x1b710b35131c471b, 0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc,
  0x431d67c49c100d4c, 0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817]

def sha512H0 : List UInt64 := [0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b,
  0xa54ff53a5f1d36f1, 0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179]

def rotr (x n : UInt64) : UInt64 := (x >>> n) ||| (x <<< (64 - n))

/-- The big-endian word of up to 8 bytes. -/
def beWord (bs : Bytes) : UInt64 := bs.foldl (fun acc b => (acc <<< 8) ||| b.toUInt64) 0

def wordsOf : Nat → Bytes → List UInt64
  | 0, _ => []
  | n+1, bs => match bs with
    | [] => []
    | _ => beWord (bs.take 8) :: wordsOf n (bs.drop 8)

def wordBytes (w : UInt64) : Bytes :=
  (List.range 8).reverse.map (fun i => UInt64.toNat ((w >>> (UInt64.ofNat (8 * i))) &&& 0xff))

def getW (w : Array UInt64) (i : Nat) : UInt64 := w.getD i 0

/-- The message schedule: 16 words extended to 80 (`fuel` further words). -/
def schedule : Nat → Array UInt64 → Array UInt64
  | 0, w => w
  | n+1, w =>
    let t := w.size
    let x := getW w (t - 15)
    let y := getW w (t - 2)
    let s0 := rotr x 1 ^^^ rotr x 8 ^^^ (x >>> 7)
    let s1 := rotr y 19 ^^^ rotr y 61 ^^^ (y >>> 6)
    schedule n (w.push (s1 + getW w (t - 7) + s0 + getW w (t - 16)))

structure Regs where
  a : UInt64
  b : UInt64
  c : UInt64
  d : UInt64
  e : UInt64
  f : UInt64
  g : UInt64
  h : UInt64

def round (r : Regs) (kw : UInt64 × UInt64) : Regs :=
  let S1 := rotr r.e 14 ^^^ rotr r.e 18 ^^^ rotr r.e 41
  let ch := (r.e &&& r.f) ^^^ (~~~r.e &&& r.g)
  let t1 := r.h + S1 + ch + kw.1 + kw.2
  let S0 := rotr r.a 28 ^^^ rotr r.a 34 ^^^ rotr r.a 39
  let maj := (r.a &&& r.b) ^^^ (r.a &&& r.c) ^^^ (r.b &&& r.c)
  let t2 := S0 + maj
  ⟨t1 + t2, r.a, r.b, r.c, r.d + t1, r.e, r.f, r.g⟩

def regsOf (h : List UInt64) : Regs :=
  ⟨h.getD 0 0, h.getD 1 0, h.getD 2 0, h.getD 3 0, h.getD 4 0, h.getD 5 0, h.getD 6 0, h.getD 7 0⟩

def compress (h : List UInt64) (block : Bytes) : List UInt64 :=
  let w := schedule 64 (wordsOf 16 block).toArray
  let r := (sha512K.zip w.toList).foldl round (regsOf h)
  let out := [r.a, r.b, r.c, r.d, r.e, r.f, r.g, r.h]
  (h.zip out).map (fun p => p.1 + p.2)

def blocks : Nat → List UInt64 → Bytes → List UInt64
  | 0, h, _ => h
  | n+1, h, bs => match bs with
    | [] => h
    | _ => blocks n (compress h (bs.take 128)) (bs.drop 128)

/-- FIPS 180-4 padding: a 1 bit, zeros to 112 mod 128 bytes, the bit length in 16 bytes. -/
def pad (m : Bytes) : Bytes :=
  let len := List.length m
  let r := (len + 1) % 128
  let z := if r ≤ 112 then 112 - r else 240 - r
  let bits := 8 * len
  m ++ [0x80] ++ List.replicate z 0 ++ (List.range 16).reverse.map (fun i => bits / 2 ^ (8 * i) % 256)

def sha512 (m : Bytes) : Bytes :=
  let p := pad m
  (blocks (List.length p) sha512H0 p).bind wordBytes

-- Ed25519 ----------------------------------------------------------------------------------------

def fp : Nat := 2 ^ 255 - 19
def groupL : Nat := 2 ^ 252 + 27742317777372353535851937790883648493

/-- `b ^ e mod m` by square-and-multiply over at most `fuel` bits of `e`. -/
def powModAux : Nat → Nat → Nat → Nat → Nat → Nat
  | 0, _, _, _, acc => acc
  | n+1, m, b, e, acc =>
    if e = 0 then acc
    else powModAux n m (b * b % m) (e / 2) (if e % 2 = 1 then acc * b % m else acc)

def powMod (b e m : Nat) : Nat := powModAux 512 m (b % m) e (1 % m)

def fadd (a b : Nat) : Nat := (a + b) % fp
def fsub (a b : Nat) : Nat := (a % fp + fp - b % fp) % fp
def fmul (a b : Nat) : Nat := a * b % fp
def finv (a : Nat) : Nat := powMod a (fp - 2) fp

def curveD : Nat := fmul (fp - 121665) (finv 121666)
def sqrtM1 : Nat := powMod 2 ((fp - 1) / 4) fp

/-- Extended coordinates (X : Y : Z : T) with x = X/Z, y = Y/Z, xy = T/Z. -/
structure Pt where
  x : Nat
  y : Nat
  z : Nat
  t : Nat

/-- RFC 8032, Section 5.1.4: the complete addition law (it also doubles). -/
def padd (p q : Pt) : Pt :=
  let a := fmul (fsub p.y p.x) (fsub q.y q.x)
  let b := fmul (fadd p.y p.x) (fadd q.y q.x)
  let c := fmul (fmul p.t (2 * curveD)) q.t
  let d := fmul (2 * p.z) q.z
  let e := fsub b a
  let f := fsub d c
  let g := fadd d c
  let h := fadd b a
  ⟨fmul e f, fmul g h, fmul f g, fmul e h⟩

def pneg (p : Pt) : Pt := ⟨fsub 0 p.x, p.y, p.z, fsub 0 p.t⟩

def ptZero : Pt := ⟨0, 1, 1, 0⟩

/-- The bits of `n`, least significant first, `fuel` of them at most. -/
def bitsLE : Nat → Nat → List Bool
  | 0, _ => []
  | k+1, n => if n = 0 then [] else (n % 2 = 1) :: bitsLE k (n / 2)

/-- `[n]P`, double-and-add from the most significant bit. -/
def smul (n : Nat) (p : Pt) : Pt :=
  (bitsLE 512 n).reverse.foldl (fun acc bit => let d := padd acc acc; match bit with | true => padd d p | false => d) ptZero

def baseY : Nat := fmul 4 (finv 5)

/-- The x of a point with this y and sign bit, if there is one (RFC 8032, Section 5.1.3, steps 2-4,
with y reduced modulo p and the x = 0 case kept as OpenSSL keeps it). -/
def recoverX (y : Nat) (sign : Bool) : Option Nat :=
  let u := fsub (fmul y y) 1
  let v := fadd (fmul curveD (fmul y y)) 1
  let v3 := fmul (fmul v v) v
  let v7 := fmul (fmul v3 v3) v
  let x := fmul (fmul u v3) (powMod (fmul u v7) ((fp - 5) / 8) fp)
  let vxx := fmul v (fmul x x)
  let x' := if vxx = u then some x else if vxx = fsub 0 u then some (fmul x sqrtM1) else none
  match x' with
  | none => none
  | some x => some (if (x % 2 == 1) == sign then x else fsub 0 x)

def baseX : Nat := match recoverX baseY false with | some x => x | none => 0
def basePt : Pt := ⟨baseX, baseY, 1, fmul baseX baseY⟩

/-- Little-endian number of a byte string. -/
def leNat : Bytes → Nat
  | [] => 0
  | b :: bs => b + 256 * leNat bs

def leBytes : Nat → Nat → Bytes
  | 0, _ => []
  | k+1, n => n % 256 :: leBytes k (n / 256)

/-- The point a 32-byte string names (OpenSSL's `ge_frombytes_vartime`). -/
def decodePt (bs : Bytes) : Option Pt :=
  let n := leNat bs
  let y := n % 2 ^ 255 % fp
  match recoverX y (n / 2 ^ 255 % 2 = 1) with
  | none => none
  | some x => some ⟨x, y, 1, fmul x y⟩

/-- The canonical 32-byte encoding of a point (RFC 8032, Section 5.1.2). -/
def encodePt (p : Pt) : Bytes :=
  let zi := finv p.z
  let x := fmul p.x zi
  let y := fmul p.y zi
  leBytes 32 (y + (if x % 2 = 1 then 2 ^ 255 else 0))

/-- Ed25519 verification of `sig` on `msg` under the 32-byte public key `pub` (RFC 8032, Section
5.1.7, cofactorless, with the choices in the module docstring). -/
def ed25519Verify (pub msg sig : Bytes) : Bool :=
  if List.length pub != 32 || List.length sig != 64 then false else
  let r := sig.take 32
  let s := leNat (sig.drop 32)
  if s ≥ groupL then false else
  match decodePt pub with
  | none => false
  | some a =>
    let k := leNat (sha512 (r ++ pub ++ msg)) % groupL
    encodePt (padd (smul s basePt) (smul k (pneg a))) == r

-- base64 (RFC 4648, standard alphabet, strict) ------------------------------------------------------

def b64Index (c : Char) : Option Nat :=
  let n := c.toNat
  if 65 ≤ n && n ≤ 90 then some (n - 65)
  else if 97 ≤ n && n ≤ 122 then some (n - 71)
  else if 48 ≤ n && n ≤ 57 then some (n + 4)
  else if c = '+' then some 62
  else if c = '/' then some 63
  else none

/-- Groups of four sextets to bytes; `pad` is the number of `=` that ended the text. -/
def b64Groups : Nat → List Nat → Bytes
  | 0, _ => []
  | n+1, a :: b :: c :: d :: rest =>
    let v := ((a * 64 + b) * 64 + c) * 64 + d
    [v / 65536 % 256, v / 256 % 256, v % 256] ++ b64Groups n rest
  | _, _ => []

/-- Strict base64, as Python's `base64.b64decode(text, validate=True)`: only the alphabet, then at most
two `=`, the whole a multiple of four characters; the bits under the padding are not checked. -/
def b64Decode (s : String) : Option Bytes :=
  let cs := s.toList
  let body := cs.filter (fun c => c != '=')
  let npad := List.length cs - List.length body
  let bodyOk := (cs.take (List.length body)).all (fun c => c != '=')
  let idx := body.map b64Index
  if !bodyOk || npad > 2 || List.length cs % 4 != 0 || (npad > 0 && List.length body % 4 == 0) then none
  else if idx.any (fun o => o.isNone) then none
  else
    let sextets := idx.map (fun o => o.getD 0) ++ List.replicate npad 0
    let out := b64Groups (List.length sextets) sextets
    some (out.take (List.length out - npad))

end AgentWarrant.Evidence
