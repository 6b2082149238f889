{ Generated messages (docs/protocol.md, "Generated messages"): xorshift64 over
  one 64 KiB block, repeated to the length. Not a cryptographic primitive: the
  same bytes in every runner. }
unit msggen;

{$mode objfpc}{$H+}{$Q-}{$R-}

interface

uses
  SysUtils, fpjson;

const
  GENERATOR = 'xorshift64';

{ inputs.msg: a hex string, or a generator object expanded here. }
function MsgInput(Inputs: TJSONObject): TBytes;

implementation

uses
  protocol, reqlimits;

const
  BLOCK_SIZE = 65536;

function IntegerField(Spec: TJSONObject; const Name: string; out Value: Int64): boolean;
var
  D: TJSONData;
begin
  D := Spec.Find(Name);
  Result := (D <> nil) and (D.JSONType = jtNumber) and
    (TJSONNumber(D).NumberType in [ntInteger, ntInt64]);
  if Result then
    Value := D.AsInt64;
end;

function ExpandGenerated(Spec: TJSONObject): TBytes;
var
  Seed, Len: Int64;
  X: QWord;
  Blk: array[0..BLOCK_SIZE - 1] of byte;
  I, K, Off, N: PtrInt;
begin
  Result := nil;
  if (Spec.Find('generator') = nil) or (Spec.Find('generator').JSONType <> jtString) or
    (Spec.Strings['generator'] <> GENERATOR) then
    Fail('bad_request', 'unknown generator; valid: xorshift64');
  if not IntegerField(Spec, 'seed', Seed) or (Seed < 0) or (Seed > 4294967295) then
    Fail('bad_request', 'generator seed must be an integer in 0..4294967295');
  if not IntegerField(Spec, 'length', Len) or (Len < 0) then
    Fail('bad_request', 'generator length must be an integer >= 0');
  if Len > MAX_GENERATED then
    Fail('invalid_params', 'a generated message is at most 2^40 bytes');
  X := QWord(Seed) xor QWord($9E3779B97F4A7C15);
  I := 0;
  while I < BLOCK_SIZE do
  begin
    X := X xor (X shl 13);
    X := X xor (X shr 7);
    X := X xor (X shl 17);
    for K := 0 to 7 do
      Blk[I + K] := byte(X shr (8 * K));
    Inc(I, 8);
  end;
  try
    SetLength(Result, Len);
  except
    on EOutOfMemory do
      Fail('invalid_params', 'cannot hold a ' + IntToStr(Len) + '-byte message');
  end;
  Off := 0;
  while Off < Len do
  begin
    N := BLOCK_SIZE;
    if Len - Off < N then
      N := Len - Off;
    Move(Blk[0], Result[Off], N);
    Inc(Off, N);
  end;
end;

function MsgInput(Inputs: TJSONObject): TBytes;
var
  D: TJSONData;
begin
  D := Inputs.Find('msg');
  if (D <> nil) and (D.JSONType = jtObject) then
    Result := ExpandGenerated(TJSONObject(D))
  else
    Result := HexToBytes(FieldString(Inputs, 'msg'), 'inputs.msg');
end;

end.
