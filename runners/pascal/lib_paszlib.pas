{ pascal/paszlib: the Adler-32 of FPC's paszlib (a Pascal port of zlib,
  unit adler); its CRC-32 is the hash package's, so it is not repeated here. }
unit lib_paszlib;

{$mode objfpc}{$H+}

interface

uses
  registry;

function PaszlibLibrary: TLibrary;

implementation

uses
  adler;

{ zlib's convention: start from 1 (adler32(1, nil, 0) = 1). }
function DigestAdler32(Ctx: Pointer; Msg: PByte; Len: PtrUInt; Output: PByte): boolean;
begin
  PutBigEndian32(adler32(1, Msg, Len), Output);
  Result := True;
end;

const
  Table: array[0..0] of TPrimitive = (
    (Id: 'adler32'; Native: 'adler.adler32'; OutLen: 4; Fn: @DigestAdler32; Ctx: nil));

function PaszlibLibrary: TLibrary;
var
  I: integer;
begin
  Result.Name := 'paszlib';
  Result.Version := {$I %FPCVERSION%};
  Result.BackendName := 'paszlib';
  Result.BackendVersion := {$I %FPCVERSION%};
  Result.CodePath := 'portable Pascal: a 1998 port of zlib''s adler32.c';
  Result.Notes := 'one-shot adler32(1, buf, len)';
  SetLength(Result.Primitives, Length(Table));
  for I := 0 to High(Table) do
    Result.Primitives[I] := Table[I];
end;

end.
