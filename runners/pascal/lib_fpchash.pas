{ pascal/fpc-hash: FPC's own hash package (units crc, md5, sha1), the
  one-shot calls a Pascal programmer would use. }
unit lib_fpchash;

{$mode objfpc}{$H+}

interface

uses
  registry;

function FpcHashLibrary: TLibrary;

implementation

uses
  crc, md5, sha1;

{ crc32() takes the running CRC and applies the ISO-HDLC pre/post inversion
  itself: a start value of 0 gives the catalog's crc32 (cbf43926). }
function DigestCrc32(Ctx: Pointer; Msg: PByte; Len: PtrUInt; Output: PByte): boolean;
begin
  PutBigEndian32(crc32(0, Msg, Len), Output);
  Result := True;
end;

function DigestMd2(Ctx: Pointer; Msg: PByte; Len: PtrUInt; Output: PByte): boolean;
begin
  PMDDigest(Output)^ := MD2Buffer(Msg^, Len);
  Result := True;
end;

function DigestMd4(Ctx: Pointer; Msg: PByte; Len: PtrUInt; Output: PByte): boolean;
begin
  PMDDigest(Output)^ := MD4Buffer(Msg^, Len);
  Result := True;
end;

function DigestMd5(Ctx: Pointer; Msg: PByte; Len: PtrUInt; Output: PByte): boolean;
begin
  PMDDigest(Output)^ := MD5Buffer(Msg^, Len);
  Result := True;
end;

function DigestSha1(Ctx: Pointer; Msg: PByte; Len: PtrUInt; Output: PByte): boolean;
type
  PSHA1Digest = ^TSHA1Digest;
begin
  PSHA1Digest(Output)^ := SHA1Buffer(Msg^, Len);
  Result := True;
end;

const
  Table: array[0..4] of TPrimitive = (
    (Id: 'crc32'; Native: 'crc.crc32'; OutLen: 4; Fn: @DigestCrc32; Ctx: nil),
    (Id: 'md2'; Native: 'md5.MD2Buffer'; OutLen: 16; Fn: @DigestMd2; Ctx: nil),
    (Id: 'md4'; Native: 'md5.MD4Buffer'; OutLen: 16; Fn: @DigestMd4; Ctx: nil),
    (Id: 'md5'; Native: 'md5.MD5Buffer'; OutLen: 16; Fn: @DigestMd5; Ctx: nil),
    (Id: 'sha1'; Native: 'sha1.SHA1Buffer'; OutLen: 20; Fn: @DigestSha1; Ctx: nil));

function FpcHashLibrary: TLibrary;
var
  I: integer;
begin
  Result.Name := 'fpc-hash';
  Result.Version := {$I %FPCVERSION%};
  Result.BackendName := 'fpc-hash';
  Result.BackendVersion := {$I %FPCVERSION%};
  Result.CodePath := 'portable Pascal: byte-wise table CRC-32, no assembly on x86-64';
  Result.Notes := 'one-shot crc32(0, buf, len), MD2Buffer/MD4Buffer/MD5Buffer, SHA1Buffer';
  SetLength(Result.Primitives, Length(Table));
  for I := 0 to High(Table) do
    Result.Primitives[I] := Table[I];
end;

end.
