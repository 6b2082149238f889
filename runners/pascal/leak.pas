{ The leak request (docs/protocol.md): two classes of inputs prepared before
  timing, one timed call per measurement (timing.TimeCompare) in the order the
  orchestrator sends. This runner hosts digests only: the two controls are its
  targets. }
unit leak;

{$mode objfpc}{$H+}

interface

uses
  fpjson;

function LeakRequest(Request: TJSONObject): TJSONObject;

implementation

uses
  SysUtils, base64, dynlibs, openssl, protocol, timing;

{ The language's byte comparison (CompareByte: what = on AnsiStrings uses,
  early exit), called through the same kind of pointer as the other. }
function PlainCompare(A, B: Pointer; N: PtrUInt): longint; cdecl;
begin
  Result := CompareByte(PByte(A)^, PByte(B)^, N);
end;

{ OpenSSL's CRYPTO_memcmp from the libcrypto the openssl unit loaded, or nil. }
function CtCompare: TCompareFn;
begin
  Result := nil;
  if (SSLUtilHandle <> 0) or InitSSLInterface then
    Result := TCompareFn(GetProcedureAddress(SSLUtilHandle, 'CRYPTO_memcmp'));
end;

function ClassInput(Shared, Over: TJSONObject; const Name: string): TBytes;
var
  Obj: TJSONObject;
begin
  Obj := Shared;
  if (Over <> nil) and (Over.Find(Name) <> nil) then
    Obj := Over;
  if (Obj = nil) or (Obj.Find(Name) = nil) then
    Fail('bad_request', 'input "' + Name + '" is missing');
  Result := HexToBytes(FieldString(Obj, Name), 'inputs.' + Name);
end;

function LeakRequest(Request: TJSONObject): TJSONObject;
var
  Order, Raw: ansistring;
  Classes: TJSONData;
  Shared, Over: TJSONObject;
  A, B: array[0..1] of TBytes;
  Cmp: TCompareFn;
  Prim: string;
  Outcomes: TJSONArray;
  I, K: integer;
  Ns: cardinal;
  T: int64;
begin
  Prim := FieldString(Request, 'primitive');
  Raw := FieldString(Request, 'order');
  try
    Order := DecodeStringBase64(Raw, True);
  except
    on E: Exception do
      Fail('bad_request', 'order is not base64');
  end;
  if Order = '' then
    Fail('bad_request', 'order must be non-empty base64');
  for I := 1 to Length(Order) do
    if Ord(Order[I]) > 1 then
      Fail('bad_request', 'order holds classes 0 and 1 only');
  Classes := Request.Find('classes');
  if (Classes = nil) or (Classes.JSONType <> jtArray) or (Classes.Count <> 2) or
    (Classes.Items[0].JSONType <> jtObject) or (Classes.Items[1].JSONType <> jtObject) then
    Fail('bad_request', 'classes must be a list of two objects');
  if (Prim <> 'equal') and (Prim <> 'equal-ct') then
    Fail('unsupported', 'pascal offers the leak controls only, not "' + Prim + '"');
  Shared := FieldObject(Request, 'inputs', False);
  for K := 0 to 1 do
  begin
    Over := TJSONObject(Classes.Items[K]);
    A[K] := ClassInput(Shared, Over, 'a');
    B[K] := ClassInput(Shared, Over, 'b');
    if (Length(A[K]) = 0) or (Length(A[K]) <> Length(B[K])) then
      Fail('invalid_params', 'inputs a and b must be non-empty and of one length');
  end;
  if Prim = 'equal' then
    Cmp := @PlainCompare
  else
    Cmp := CtCompare;
  if Cmp = nil then
    Fail('unsupported', 'CRYPTO_memcmp not found in libcrypto');
  Outcomes := TJSONArray.Create;
  for K := 0 to 1 do
    if Cmp(@A[K][0], @B[K][0], Length(A[K])) = 0 then
      Outcomes.Add('01')
    else
      Outcomes.Add('00');
  SetLength(Raw, 4 * Length(Order));
  for I := 1 to Length(Order) do
  begin
    K := Ord(Order[I]);
    T := TimeCompare(Cmp, @A[K][0], @B[K][0], Length(A[K]));
    if T > High(cardinal) then
      Ns := High(cardinal)
    else
      Ns := cardinal(T);
    Ns := NtoLE(Ns);
    Move(Ns, Raw[4 * I - 3], 4);
  end;
  Result := TJSONObject.Create(['outcomes', Outcomes, 'ns', EncodeStringBase64(Raw),
    'clock', 'clock_gettime(CLOCK_MONOTONIC) from libc (vDSO)']);
end;

end.
