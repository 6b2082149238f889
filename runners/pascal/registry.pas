{ What a library unit hands the runner: one row per catalog primitive, and
  the lookup of a request's implementation and primitive (noop included). }
unit registry;

{$mode objfpc}{$H+}

interface

type
  { One digest of Len bytes at Msg into Output; False on a library error. }
  TDigestFn = function(Ctx: Pointer; Msg: PByte; Len: PtrUInt; Output: PByte): boolean;

  TPrimitive = record
    Id: string;       { catalog id }
    Native: string;   { the library's own name for it }
    OutLen: integer;  { bytes written to Output }
    Fn: TDigestFn;
    Ctx: Pointer;     { what setup prepared (an EVP_MD), or nil }
  end;
  PPrimitive = ^TPrimitive;

  TLibrary = record
    Name, Version: string;
    BackendName, BackendVersion: string;
    CodePath, Notes: string;
    Primitives: array of TPrimitive;
  end;
  PLibrary = ^TLibrary;
  TLibraries = array of TLibrary;

const
  MaxOutLen = 64;

procedure PutBigEndian32(Value: cardinal; Output: PByte);
function FindLibrary(var Libs: TLibraries; const Name: string): PLibrary;
function FindPrimitive(Lib: PLibrary; const Id: string): PPrimitive;

implementation

uses
  protocol;

{ Output: the message length as an 8-byte big-endian integer. }
function DigestNoop(Ctx: Pointer; Msg: PByte; Len: PtrUInt; Output: PByte): boolean;
begin
  PQWord(Output)^ := NtoBE(QWord(Len));
  Result := True;
end;

const
  Noop: TPrimitive = (Id: 'noop'; Native: 'noop'; OutLen: 8; Fn: @DigestNoop; Ctx: nil);

procedure PutBigEndian32(Value: cardinal; Output: PByte);
begin
  PCardinal(Output)^ := NtoBE(Value);
end;

function FindLibrary(var Libs: TLibraries; const Name: string): PLibrary;
var
  I: integer;
begin
  for I := 0 to High(Libs) do
    if Libs[I].Name = Name then
      Exit(@Libs[I]);
  Fail('unsupported', 'implementation "' + Name + '" is not offered');
  Result := nil;
end;

{ Lib is nil for a noop request without "impl". }
function FindPrimitive(Lib: PLibrary; const Id: string): PPrimitive;
var
  I: integer;
begin
  if Id = 'noop' then
    Exit(@Noop);
  if Lib = nil then
    Fail('bad_request', 'missing field "impl"');
  for I := 0 to High(Lib^.Primitives) do
    if Lib^.Primitives[I].Id = Id then
      Exit(@Lib^.Primitives[I]);
  Fail('unsupported', Lib^.Name + ' does not offer "' + Id + '"');
  Result := nil;
end;

end.
